/// The cookies of one request, parsed from its `Cookie` header (RFC 6265
/// §5.4's `name=value; name=value`).
///
/// Lenient by design: spaces around pairs and `=`, a value in double quotes,
/// pairs without `=` (skipped) and any bytes at all are tolerated; the first
/// occurrence of a name wins, as browsers send the most specific cookie first.
public struct RequestCookies: Sendable, Equatable {
  private var values: [String: String] = [:]

  /// - Parameter header: the `Cookie` header's value, or nil when absent.
  public init(header: String?) {
    guard let header else { return }
    for pair in header.split(separator: ";", omittingEmptySubsequences: true) {
      guard let equals = pair.firstIndex(of: "=") else { continue }
      let name = RequestCookies.trimmed(pair[..<equals])
      guard !name.isEmpty, values[name] == nil else { continue }
      var value = RequestCookies.trimmed(pair[pair.index(after: equals)...])
      if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
        value = String(value.dropFirst().dropLast())
      }
      values[name] = value
    }
  }

  /// The value of the cookie `name`, or nil when the request has none.
  public subscript(name: String) -> String? { values[name] }

  private static func trimmed(_ text: Substring) -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let start = text.firstIndex(where: { !isSpace($0) }) else { return "" }
    let end = text.lastIndex(where: { !isSpace($0) })!
    return String(text[start...end])
  }
}
