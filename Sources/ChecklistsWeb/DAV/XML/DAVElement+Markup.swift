extension DAVElement {
  /// Its content as XML, to keep a dead property's value as sent: its text
  /// escaped, then each child element with its namespace declared on it
  /// (prefixes `y1`, `y2`… by depth, so none clashes with the
  /// multistatus's own), its unprefixed attributes sorted by name.
  var contentMarkup: String {
    var markup = DAVValue.escaped(text)
    for child in children { child.appendMarkup(depth: 1, to: &markup) }
    return markup
  }

  private func appendMarkup(depth: Int, to markup: inout String) {
    let qualified = namespace.isEmpty ? name : "y\(depth):\(name)"
    markup += "<\(qualified)"
    if !namespace.isEmpty { markup += " xmlns:y\(depth)=\"\(DAVValue.escaped(namespace))\"" }
    for (attribute, value) in attributes.sorted(by: { $0.key < $1.key }) {
      markup += " \(attribute)=\"\(DAVValue.escaped(value))\""
    }
    guard !text.isEmpty || !children.isEmpty else {
      markup += "/>"
      return
    }
    markup += ">" + DAVValue.escaped(text)
    for child in children { child.appendMarkup(depth: depth + 1, to: &markup) }
    markup += "</\(qualified)>"
  }
}
