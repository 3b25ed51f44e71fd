/// A property a calendar app set on a list's collection that the list has
/// no field for (a colour, an order, a description), kept as sent and sent
/// back when asked: RFC 4918's dead properties. Bounded, as everything an
/// owner stores: `maximumCount` a list, each at most `maximumValueBytes`.
package struct CollectionProperty: Sendable, Equatable, Codable {
  /// The property's XML namespace and local name.
  package var namespace: String
  package var name: String
  /// Its value as XML, the content of the property's element as the
  /// server writes it back (text escaped, child elements with their own
  /// namespace declarations).
  package var value: String

  package init(namespace: String, name: String, value: String) {
    self.namespace = namespace
    self.name = name
    self.value = value
  }

  package static let maximumCount = 16
  /// A value's bytes: room for a time zone's definition
  /// (`calendar-timezone`), the longest value clients are known to set.
  package static let maximumValueBytes = 4_096
  /// A namespace's and a name's bytes together.
  package static let maximumNameBytes = 256

  /// Whether a property of this name and value may be kept at all.
  package static func fits(namespace: String, name: String, value: String) -> Bool {
    namespace.utf8.count + name.utf8.count <= maximumNameBytes
      && value.utf8.count <= maximumValueBytes
  }
}

extension Checklist {
  /// Sets and removes its dead properties, all or nothing: a set replaces
  /// a property of the same name. False when the list would then hold more
  /// than `CollectionProperty.maximumCount` (nothing changed).
  package mutating func changeProperties(
    setting set: [CollectionProperty], removing removed: [(namespace: String, name: String)]
  ) -> Bool {
    var kept = properties.filter { property in
      !removed.contains { $0.namespace == property.namespace && $0.name == property.name }
        && !set.contains { $0.namespace == property.namespace && $0.name == property.name }
    }
    kept.append(contentsOf: set)
    guard kept.count <= CollectionProperty.maximumCount else { return false }
    properties = kept
    return true
  }
}

extension DataModel {
  /// `Checklist.changeProperties(setting:removing:)` of the list `id`.
  ///
  /// - Throws: `ChecklistsError.noSuchList`.
  package mutating func changeProperties(
    ofList id: Int, setting set: [CollectionProperty],
    removing removed: [(namespace: String, name: String)]
  ) throws(ChecklistsError) -> Bool {
    guard let row = lists.firstIndex(where: { $0.id == id }) else { throw .noSuchList(id) }
    return lists[row].changeProperties(setting: set, removing: removed)
  }
}
