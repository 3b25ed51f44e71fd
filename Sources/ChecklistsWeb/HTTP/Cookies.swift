/// The cookies of one request, parsed from its `Cookie` field (RFC 6265
/// §5.4's `name=value; name=value`).
///
/// Lenient by design: spaces around pairs and `=`, a value in double quotes,
/// pairs without `=` (skipped) and any bytes at all are tolerated; the first
/// occurrence of a name wins, as browsers send the most specific cookie first.
package struct Cookies: Sendable, Equatable {
  /// In the order sent, each name once. An array searched from the start:
  /// a request carries a few cookies, and a dictionary cost its storage and
  /// a hash of every name (~2,100 instructions a cookie, `bench-web
  /// --profile N computed`).
  private var pairs: [(name: String, value: String)] = []
  /// Each name's place in `pairs`, made once there are `indexedFrom` of
  /// them, so that a header of thousands of tiny cookies is not searched
  /// once per cookie.
  private var index: [String: Int]? = nil
  static let indexedFrom = 16

  /// - Parameter header: the `Cookie` field's value, or nil when absent.
  package init(header: String?) {
    guard var header else { return }
    // Parsed as UTF-8 bytes: `;`, `=`, space, tab and `"` are ASCII, so a
    // split between bytes never cuts a character (and it is ~10× cheaper
    // than walking grapheme clusters, on every request).
    header.withUTF8 { bytes in
      var start = 0
      while start <= bytes.count {
        var end = start
        while end < bytes.count && bytes[end] != UInt8(ascii: ";") { end += 1 }
        add(bytes, from: start, to: end)
        start = end + 1
      }
    }
  }

  /// Adds the pair in `bytes[start..<end]`, if it has a name not seen yet.
  private mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
    guard let equals = (start..<end).first(where: { bytes[$0] == UInt8(ascii: "=") }) else {
      return
    }
    let name = Self.trimmed(bytes, from: start, to: equals)
    guard name.lowerBound < name.upperBound else { return }
    let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[name]), as: UTF8.self)
    guard self[key] == nil else { return }
    var value = Self.trimmed(bytes, from: equals + 1, to: end)
    if value.count >= 2, bytes[value.lowerBound] == UInt8(ascii: "\""),
      bytes[value.upperBound - 1] == UInt8(ascii: "\"")
    {
      value = (value.lowerBound + 1)..<(value.upperBound - 1)
    }
    pairs.append(
      (key, String(decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self)))
    if index != nil {
      index![key] = pairs.count - 1
    } else if pairs.count == Self.indexedFrom {
      index = Dictionary(uniqueKeysWithValues: pairs.enumerated().map { ($1.name, $0) })
    }
  }

  /// `start..<end` without leading and trailing spaces and tabs.
  private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
    -> Range<Int>
  {
    func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    var lower = start
    var upper = end
    while lower < upper && isSpace(bytes[lower]) { lower += 1 }
    while upper > lower && isSpace(bytes[upper - 1]) { upper -= 1 }
    return lower..<upper
  }

  /// The value of the cookie called exactly `name`.
  package subscript(name: String) -> String? {
    if let index { return index[name].map { pairs[$0].value } }
    return pairs.first { $0.name == name }?.value
  }

  /// The value of a cookie set by `Cookie.longLived(name:value:secure:)`:
  /// under HTTPS its `__Host-` form, or else the plain one a browser kept
  /// from before (it is replaced by the prefixed one when next set).
  package func value(named name: String, isHTTPS: Bool) -> String? {
    if isHTTPS, let value = self[Cookie.hostPrefix + name] { return value }
    return self[name]
  }

  /// The same cookies, in any order.
  package static func == (lhs: Cookies, rhs: Cookies) -> Bool {
    lhs.pairs.count == rhs.pairs.count && lhs.pairs.allSatisfy { rhs[$0.name] == $0.value }
  }
}
