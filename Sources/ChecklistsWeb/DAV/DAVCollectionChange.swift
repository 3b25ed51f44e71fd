import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes

/// A client's changes to a list's collection: `PROPPATCH` of its
/// `displayname` (a rename, as Edit List's) and of the properties clients
/// keep there (a colour, an order), and `DELETE` (the list goes to
/// Recently Deleted, as on the web). Each is one `ChecklistStore.update`.
enum DAVCollectionChange {
  /// `PROPPATCH /dav/lists/{collection}/`: `displayname` set is the list's new
  /// name (cleaned and bounded as a typed one); a live property (the
  /// server's: `DAV:`'s others, CalDAV's and the tag's) is `403`
  /// `cannot-modify-protected-property`; any other property set is kept as
  /// sent and sent back by `PROPFIND` (`CollectionProperty`: Apple's
  /// `calendar-color` and `calendar-order`, a description…; the list's
  /// icon has no colour to map one to), removed when asked. Beyond the
  /// bounds a property is `507`. The request is all or nothing (RFC 4918
  /// §9.2): one refused, the rest `424` and nothing changed.
  static func proppatch(_ context: DAVContext) throws -> Response {
    do {
      guard let account = context.account else { throw DAVRefusal.notFound }
      let root: DAVElement
      do { root = try DAVXMLReader.read(context.request.body) } catch {
        throw DAVRefusal.xml(error)
      }
      guard root.isNamed(DAVProperty.dav, "propertyupdate") else {
        throw DAVRefusal.badRequest(
          DAVMessage(translatable("the body is not a DAV:propertyupdate")))
      }
      var patch = Patch()
      for instruction in root.children {
        let isSet = instruction.isNamed(DAVProperty.dav, "set")
        guard isSet || instruction.isNamed(DAVProperty.dav, "remove") else { continue }
        for property in instruction.child(DAVProperty.dav, "prop")?.children ?? [] {
          patch.add(property, isSet: isSet)
        }
      }
      var writer = MultistatusWriter()
      let (list, _, _) = try Report.list(context)  // an unknown list is 404 all the same
      let href = DAVAddress.collection(list)
      let listID = list.id
      var checked = list
      if patch.refused.isEmpty,
        !checked.changeProperties(setting: patch.set, removing: patch.removed)
      {
        patch.refused += patch.set.map {
          (DAVProperty(namespace: $0.namespace, name: $0.name), "HTTP/1.1 507 Insufficient Storage")
        }
      }
      guard patch.refused.isEmpty else {
        let refusedNames = patch.refused.map(\.0)
        var statuses: [(String, [DAVProperty])] = []
        for status in Set(patch.refused.map(\.1)).sorted() {
          statuses.append((status, patch.refused.filter { $0.1 == status }.map(\.0)))
        }
        statuses.append(
          ("HTTP/1.1 424 Failed Dependency", patch.named.filter { !refusedNames.contains($0) }))
        writer.response(href: href, statuses: statuses)
        return DAVResponse.multistatus(writer.finish())
      }
      if patch.newName != nil || !patch.set.isEmpty || !patch.removed.isEmpty {
        try DAVWrite.update(context, account) { model throws(DAVRefusal) in
          guard let list = model.checklist(id: listID) else { throw .notFound }
          var fitted = true
          do throws(ChecklistsError) {
            if let newName = patch.newName {
              try model.updateList(id: listID, name: newName, icon: list.icon)
            }
            fitted = try model.changeProperties(
              ofList: listID, setting: patch.set, removing: patch.removed)
          } catch {
            throw DAVWrite.refusal(error)
          }
          // Another request filled the list's properties meanwhile.
          guard fitted else {
            throw .tooManyProperties
          }
        }
      }
      writer.response(href: href, statuses: [("HTTP/1.1 200 OK", patch.named)])
      return DAVResponse.multistatus(writer.finish())
    } catch let refusal as DAVRefusal {
      return refusal.response(in: context.catalogue)
    }
  }

  /// What a `PROPPATCH` asks, sorted out: the new name, the dead
  /// properties set and removed (the last instruction for a name wins), and
  /// each property refused with its status.
  struct Patch {
    var named: [DAVProperty] = []
    var newName: String?
    var set: [CollectionProperty] = []
    var removed: [(namespace: String, name: String)] = []
    var refused: [(DAVProperty, String)] = []

    mutating func add(_ property: DAVElement, isSet: Bool) {
      let name = DAVProperty(namespace: property.namespace, name: property.name)
      named.append(name)
      set.removeAll { $0.namespace == name.namespace && $0.name == name.name }
      removed.removeAll { $0.namespace == name.namespace && $0.name == name.name }
      if name == .displayName, isSet {
        newName = property.text
      } else if DAVCollectionChange.isLive(name) {
        refused.append((name, "HTTP/1.1 403 Forbidden"))
      } else if !isSet {
        removed.append((name.namespace, name.name))
      } else {
        let value = property.contentMarkup
        guard CollectionProperty.fits(namespace: name.namespace, name: name.name, value: value)
        else {
          refused.append((name, "HTTP/1.1 507 Insufficient Storage"))
          return
        }
        set.append(CollectionProperty(namespace: name.namespace, name: name.name, value: value))
      }
    }
  }

  /// A property the server keeps itself: every `DAV:` one (the name aside),
  /// CalDAV's that describe the collection, the tag.
  static func isLive(_ property: DAVProperty) -> Bool {
    switch property.namespace {
    case DAVProperty.dav: true
    case DAVProperty.calDAV:
      !["calendar-description", "calendar-timezone"].contains(property.name)
    case DAVProperty.calendarServer: property.name == "getctag"
    default: false
    }
  }

  /// `DELETE /dav/lists/{collection}/`: the list and its items go to Recently
  /// Deleted, where the web's Restore brings them back; `204`.
  static func delete(_ context: DAVContext) throws -> Response {
    do {
      guard let account = context.account else { throw DAVRefusal.notFound }
      try DAVWrite.update(context, account) { model throws(DAVRefusal) in
        let list = try Report.list(context, in: model)
        do {
          try model.deleteList(id: list.id, at: context.now, by: .app)
        } catch {
          throw .notFound
        }
      }
      return Response(status: .noContent)
    } catch let refusal as DAVRefusal {
      return refusal.response(in: context.catalogue)
    }
  }
}
