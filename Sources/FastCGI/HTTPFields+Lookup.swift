import HTTPTypes

// Look-ups on every request's path. swift-http-types' own `fields[name]`
// walks a generic sequence of the matching fields, maps and joins their
// values, and `contains` compares each canonical name in full: a request's
// `fields[.cookie]` took ~460 ns, and `contains` of the four security
// headers on a page's fields ~250 ns (bench-web, release), against ~20 ns
// and ~65 ns here. These compare the names' lengths first (the fields of one message
// mostly differ in length) and read the matching field directly.

extension HTTPField.Name {
  /// Whether `self` and `other` name the same field (their canonical names
  /// are equal), with the lengths compared first.
  @inlinable
  package func isSameField(as other: HTTPField.Name) -> Bool {
    canonicalName.utf8.count == other.canonicalName.utf8.count
      && canonicalName == other.canonicalName
  }
}

extension HTTPFields {
  /// The value of the fields called `name`, as `self[name]` gives it: nil
  /// when there is none, several joined with `, ` (`; ` for `Cookie`).
  @inlinable
  package func value(of name: HTTPField.Name) -> String? {
    var found: String?
    for index in indices where self[index].name.isSameField(as: name) {
      let value = self[index].value
      guard let earlier = found else {
        found = value
        continue
      }
      found = earlier + (name.isSameField(as: .cookie) ? "; " : ", ") + value
    }
    return found
  }

  /// Whether a field called `name` is present, as `contains(_:)` tells.
  @inlinable
  package func hasField(_ name: HTTPField.Name) -> Bool {
    indices.contains { self[$0].name.isSameField(as: name) }
  }
}
