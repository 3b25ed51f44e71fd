/// The names a route's path gives its ids (`{list}`, `{item}`, `{deletion}`).
///
/// List, item and deletion ids are the stable positive integers the model hands out,
/// never row numbers; a path only yields ids in `1...999_999_999_999_999_999`.
package enum PathParameter: String, Sendable, Hashable, CaseIterable {
  case list
  case item
  /// One of the owner's templates (`DataModel.templates`, a list id).
  case template
  /// An entry of Recently deleted (`Deletion.id`).
  case deletion
  /// One of the owner's browsers on the Devices screen (`Devices.Browser.id`).
  case browser
  /// One of the owner's calendar apps on the Devices screen (`Devices.App.id`).
  case app
}

/// The ids one request's path carried, by the name its route's pattern
/// gives them.
package struct RouteParameters: Sendable, Hashable, CustomStringConvertible {
  /// A handler asked for an id its route's pattern does not name: a
  /// mistake in the route table, answered `500` and logged.
  struct Missing: Error, CustomStringConvertible {
    var name: PathParameter
    var description: String { "the route's path has no {\(name.rawValue)}" }
  }

  let names: [PathParameter]
  let ids: [Int]
  /// The token of a `{secret}` segment (a calendar's address), else nil.
  /// Never logged: it is the address's only key.
  package let secret: String?
  /// The name of a `{resource}` segment (a CalDAV item's), decoded, else nil.
  package let resource: String?
  /// The segment of a `{collection}` (a list's id or the name a client
  /// gave it), decoded, else nil.
  package let collection: String?

  init(
    names: [PathParameter], ids: [Int], secret: String? = nil, resource: String? = nil,
    collection: String? = nil
  ) {
    self.names = names
    self.ids = ids
    self.secret = secret
    self.resource = resource
    self.collection = collection
  }

  /// The id named `name`, or nil when the route's path has none.
  package subscript(name: PathParameter) -> Int? {
    names.firstIndex(of: name).map { ids[$0] }
  }

  /// The id named `name`, which the route's path is known to carry.
  func require(_ name: PathParameter) throws(Missing) -> Int {
    guard let id = self[name] else { throw Missing(name: name) }
    return id
  }

  /// The ids, and never the secret.
  package var description: String {
    let ids = zip(names, ids).map { "\($0.rawValue)=\($1)" }
    return "[" + (ids + (secret == nil ? [] : ["secret=(hidden)"])).joined(separator: ", ") + "]"
  }
}
