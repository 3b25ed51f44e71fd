import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes

/// A client's changes to a list's collection: `PROPPATCH` of its
/// `displayname` (a rename, as Edit List's) and `DELETE` (the list goes to
/// Recently Deleted, as on the web). Each is one `ChecklistStore.update`.
enum DAVCollectionChange {
  /// `PROPPATCH /dav/lists/{list}/`: `displayname` set is the list's new
  /// name (cleaned and bounded as a typed one); any other property is not
  /// kept, `403` for it and, the request being all or nothing (RFC 4918
  /// §9.2), `424` for the rest, with nothing changed.
  static func proppatch(_ context: DAVContext) throws -> Response {
    do {
      guard let account = context.account, let listID = context.parameters[.list] else {
        throw DAVRefusal.notFound
      }
      let root: DAVElement
      do { root = try DAVXMLReader.read(context.request.body) } catch {
        throw DAVRefusal.xml(error)
      }
      guard root.isNamed(DAVProperty.dav, "propertyupdate") else {
        throw DAVRefusal.badRequest("the body is not a DAV:propertyupdate")
      }
      var newName: String?
      var refused: [DAVProperty] = []
      var named: [DAVProperty] = []
      for instruction in root.children {
        let isSet = instruction.isNamed(DAVProperty.dav, "set")
        guard isSet || instruction.isNamed(DAVProperty.dav, "remove") else { continue }
        for property in instruction.child(DAVProperty.dav, "prop")?.children ?? [] {
          let name = DAVProperty(namespace: property.namespace, name: property.name)
          named.append(name)
          if name == .displayName && isSet {
            newName = property.text
          } else {
            refused.append(name)
          }
        }
      }
      var writer = MultistatusWriter()
      let href = DAVAddress.collection(listID)
      guard refused.isEmpty else {
        writer.response(
          href: href,
          statuses: [
            ("HTTP/1.1 403 Forbidden", refused),
            ("HTTP/1.1 424 Failed Dependency", named.filter { !refused.contains($0) }),
          ])
        return DAVResponse.multistatus(writer.finish())
      }
      if let newName {
        try DAVWrite.update(context, account) { model throws(DAVRefusal) in
          guard let list = model.checklist(id: listID) else { throw .notFound }
          do throws(ChecklistsError) {
            try model.updateList(id: listID, name: newName, icon: list.icon)
          } catch {
            throw DAVWrite.refusal(error)
          }
        }
      } else {
        _ = try Report.list(context)  // an unknown list is 404 all the same
      }
      writer.response(href: href, statuses: [("HTTP/1.1 200 OK", named)])
      return DAVResponse.multistatus(writer.finish())
    } catch let refusal as DAVRefusal {
      return refusal.response
    }
  }

  /// `DELETE /dav/lists/{list}/`: the list and its items go to Recently
  /// Deleted, where the web's Restore brings them back; `204`.
  static func delete(_ context: DAVContext) throws -> Response {
    do {
      guard let account = context.account, let listID = context.parameters[.list] else {
        throw DAVRefusal.notFound
      }
      try DAVWrite.update(context, account) { model throws(DAVRefusal) in
        do {
          try model.deleteList(id: listID, at: context.now)
        } catch {
          throw .notFound
        }
      }
      return Response(status: .noContent)
    } catch let refusal as DAVRefusal {
      return refusal.response
    }
  }
}
