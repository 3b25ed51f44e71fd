import ChecklistsModel
import Documents
import FastCGI
import Foundation
import HTTPTypes
import Interchange
import Storage

/// `PROPFIND` (RFC 4918 §9.1) on the principal, the calendar home and a
/// list's collection, at `Depth: 0` (the resource) or `1` (and its members).
/// `Depth: infinity`, which a request without `Depth` means, is refused with
/// `403` and the `propfind-finite-depth` precondition: a whole account in
/// one answer is what a client must not ask for.
enum Propfind {
  /// What the body asks for.
  enum Asked: Equatable {
    /// `<allprop/>` or no body: every property but the costly ones.
    case all
    /// `<propname/>`: the names alone.
    case names
    case properties([DAVProperty])
  }

  /// `PROPFIND /dav/`: where the principal is.
  static func root(_ context: DAVContext) throws -> Response {
    try answer(context) { _ in
      [(DAVAddress.root, common(displayName: "Checklists"))]
    }
  }

  /// `PROPFIND /dav/principal/`: the owner, and where their calendars are.
  static func principal(_ context: DAVContext) throws -> Response {
    try answer(context) { _ in
      var properties = common(displayName: "Checklists")
      properties[0] = (.resourceType, .markup("<d:principal/>"))
      properties.append((.principalURL, .href(DAVAddress.principal)))
      properties.append((.calendarHomeSet, .href(DAVAddress.home)))
      return [(DAVAddress.principal, properties)]
    }
  }

  /// `PROPFIND /dav/lists/`: the home, and at depth 1 a collection per list.
  static func home(_ context: DAVContext) throws -> Response {
    try answer(context) { depth in
      var resources = [(DAVAddress.home, common(displayName: "Lists"))]
      if depth == 1 {
        let owned = try self.ownedVersioned(context)
        for list in owned.model.lists {
          resources.append(
            (
              DAVAddress.collection(list),
              properties(of: list, tags(of: list, owned, context.services))
            ))
        }
      }
      return resources
    }
  }

  /// `PROPFIND /dav/lists/{collection}/`: the list, and at depth 1 its to-dos.
  static func collection(_ context: DAVContext) throws -> Response {
    try answer(context) { depth in
      let owned = try self.ownedVersioned(context)
      let list = try Report.list(context, in: owned.model)
      let tags = tags(of: list, owned, context.services)
      var resources = [(DAVAddress.collection(list), properties(of: list, tags))]
      if depth == 1 {
        for member in tags.members {
          resources.append(
            (DAVAddress.item(member.name, in: list), properties(etag: member.etag)))
        }
      }
      return resources
    }
  }

  // MARK: Properties

  /// What every resource here has.
  static func common(displayName: String) -> [(DAVProperty, DAVValue)] {
    [
      (.resourceType, .markup("<d:collection/>")),
      (.displayName, .text(displayName)),
      (.currentUserPrincipal, .href(DAVAddress.principal)),
      (.currentUserPrivileges, .markup(privileges(["read"]))),
    ]
  }

  /// A `current-user-privilege-set` (RFC 3744 §5.4) of these `DAV:`
  /// privileges. A list says it may be written: Apple's clients and
  /// Thunderbird read this to show a calendar as writable or not.
  static func privileges(_ names: [String]) -> String {
    names.map { "<d:privilege><d:\($0)/></d:privilege>" }.joined()
  }

  static func properties(of list: Checklist, _ tags: DAVCollectionTags) -> [(
    DAVProperty, DAVValue
  )] {
    [
      (.resourceType, .markup("<d:collection/><c:calendar/>")),
      (.displayName, .text(list.name)),
      (.currentUserPrincipal, .href(DAVAddress.principal)),
      (.supportedComponents, .markup("<c:comp name=\"VTODO\"/>")),
      (
        .currentUserPrivileges,
        .markup(
          privileges(["read", "write", "write-properties", "write-content", "bind", "unbind"]))
      ),
      (.getCTag, .text(tags.tag)),
      (.getETag, .text(tags.tag)),
      (.syncToken, .text(tags.syncToken.text)),
      (
        .supportedReports,
        .markup(
          ["c:calendar-multiget", "c:calendar-query", "d:sync-collection"].map {
            "<d:supported-report><d:report><\($0)/></d:report></d:supported-report>"
          }.joined())
      ),
    ]
      + list.properties.map { property in
        (DAVProperty(namespace: property.namespace, name: property.name), .markup(property.value))
      }
  }

  static func properties(of todo: DAVTodo) -> [(DAVProperty, DAVValue)] {
    properties(etag: todo.etag)
  }

  static func properties(etag: String) -> [(DAVProperty, DAVValue)] {
    [
      (.resourceType, .empty),
      (.getETag, .text(etag)),
      (.getContentType, .text(DAVResponse.calendarType)),
    ]
  }

  // MARK: The request and the answer

  /// Reads `Depth` and the body, then answers a multistatus of the
  /// resources `resources` gives for that depth.
  static func answer(
    _ context: DAVContext, _ resources: (Int) throws -> [(String, [(DAVProperty, DAVValue)])]
  ) throws -> Response {
    do {
      let depth = try self.depth(context.request)
      let asked = try self.asked(context.request.body)
      var writer = MultistatusWriter()
      for (href, properties) in try resources(depth) {
        switch asked {
        case .all:
          writer.response(href: href, found: properties, missing: [])
        case .names:
          writer.response(href: href, found: properties.map { ($0.0, .empty) }, missing: [])
        case .properties(let wanted):
          let found = wanted.compactMap { name in properties.first { $0.0 == name } }
          let missing = wanted.filter { name in !properties.contains { $0.0 == name } }
          writer.response(href: href, found: found, missing: missing)
        }
      }
      return DAVResponse.multistatus(writer.finish())
    } catch let refusal as DAVRefusal {
      return refusal.response(in: context.catalogue)
    }
  }

  /// `Depth: 0` or `1`; absent or `infinity` is refused.
  static func depth(_ request: Request) throws(DAVRefusal) -> Int {
    switch request.headerFields[.depth]?.lowercased() {
    case "0": 0
    case "1": 1
    case "infinity", nil: throw .finiteDepth
    default: throw .badRequest(DAVMessage(translatable("Depth must be 0 or 1")))
    }
  }

  /// What a `PROPFIND` body asks for.
  static func asked(_ body: [UInt8]) throws(DAVRefusal) -> Asked {
    if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return .all }
    let root: DAVElement
    do { root = try DAVXMLReader.read(body) } catch { throw .xml(error) }
    guard root.isNamed(DAVProperty.dav, "propfind") else {
      throw .badRequest(DAVMessage(translatable("the body is not a DAV:propfind")))
    }
    if root.child(DAVProperty.dav, "allprop") != nil { return .all }
    if root.child(DAVProperty.dav, "propname") != nil { return .names }
    guard let prop = root.child(DAVProperty.dav, "prop") else {
      throw .badRequest(
        DAVMessage(translatable("a propfind names prop, allprop or propname")))
    }
    return .properties(prop.children.map { DAVProperty(namespace: $0.namespace, name: $0.name) })
  }

  /// The owner's lists as a client sees them, the salt of their `UID`s and
  /// their zone.
  static func owned(_ context: DAVContext) throws -> (DataModel, String, TimeZone) {
    let owned = try ownedVersioned(context)
    return (owned.model, owned.salt, owned.zone)
  }

  /// The same, with the version of the owner's file the model came from.
  struct Owned {
    let key: String
    let model: DataModel
    let salt: String
    let zone: TimeZone
    let version: DocumentVersion?
  }

  static func ownedVersioned(_ context: DAVContext) throws -> Owned {
    guard let account = context.account else { throw DAVRefusal.notFound }
    let owner = account.owner
    let stored = try context.services.store.loadVersioned(owner)
    return Owned(
      key: owner.key, model: stored.model ?? DataModel.firstRun(),
      salt: CalendarUID.salt(visitorKey: owner.key), zone: context.services.zone(of: owner),
      version: stored.version)
  }

  /// A list's tags, kept per version of the owner's file.
  static func tags(of list: Checklist, _ owned: Owned, _ services: DAVServices)
    -> DAVCollectionTags
  {
    let key = DAVCollectionTags.Cache.Key(
      owner: owned.key, list: list.id, zone: owned.zone.identifier)
    return services.collectionTags.tags(key, version: owned.version) {
      DAVCollectionTags(DAVCollection(list, salt: owned.salt, zone: owned.zone), zone: owned.zone)
    }
  }
}

extension HTTPField.Name {
  /// `Depth` (RFC 4918 §10.2).
  static let depth = HTTPField.Name("Depth")!
}
