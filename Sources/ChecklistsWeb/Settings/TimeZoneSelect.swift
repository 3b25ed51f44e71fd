import HTMLTemplates
import Support

/// The options of Settings' time-zone select, as HTML: some 440 zones,
/// each an `<option>` line, the visitor's marked `selected`.
///
/// Rendered once per zone and kept: as a template section of 440 objects
/// the list cost ~600,000 instructions a request (`bench-web --profile N
/// settings`), more than the rest of the page together. The names are
/// the server's own (its ICU data), escaped all the same. At most one
/// entry per zone the server knows (a visitor's zone is always one of
/// them), so the cache is bounded: about 14 KB each.
final class TimeZoneSelect: Sendable {
  private let identifiers: [String]
  private let rendered = LockedValue<[String: String]>([:])

  init(identifiers: [String]) {
    self.identifiers = identifiers
  }

  /// The `<option>` lines, `selected`'s marked (none when it is not a
  /// known zone).
  func options(selected: String) -> String {
    if let kept = rendered.withLock({ $0[selected] }) { return kept }
    let options = render(selected: selected)
    if identifiers.contains(selected) { rendered.withLock { $0[selected] = options } }
    return options
  }

  private func render(selected: String) -> String {
    var html = ""
    html.reserveCapacity(identifiers.count * 32)
    for name in identifiers {
      html += name == selected ? "<option selected>" : "<option>"
      html += HTMLEscaping.escape(name)
      html += "</option>\n"
    }
    return html
  }
}
