/// Whether a request's `Accept-Encoding` lets its answer be sent gzipped
/// (RFC 9110 §12.5.3).
///
/// The field is a list of codings, each with an optional weight
/// (`gzip;q=0.8`); `gzip` and its old name `x-gzip` are the same coding,
/// and `*` stands for every coding the list does not name. gzip is
/// acceptable when its own weight, or else `*`'s, is above 0: `gzip;q=0`
/// refuses it even beside `*`. An element that cannot be read (a weight
/// that is not a qvalue) says nothing, so a malformed field never earns a
/// coding the client did not ask for. No field means no preference, which
/// RFC 9110 lets a server answer with any coding; browsers always send one,
/// and a client that sends none gets the plain bytes, which every client
/// reads.
enum AcceptEncoding {
  /// True when the answer to a request with this `Accept-Encoding` may be gzipped.
  static func allowsGzip(_ field: String?) -> Bool {
    guard let field else { return false }
    var gzip: Int?
    var any: Int?
    for element in field.utf8.split(separator: UInt8(ascii: ",")) {
      guard let (coding, weight) = parse(element) else { continue }
      if coding.elementsEqual("gzip".utf8, by: equalIgnoringCase)
        || coding.elementsEqual("x-gzip".utf8, by: equalIgnoringCase)
      {
        gzip = max(gzip ?? 0, weight)
      } else if coding.elementsEqual("*".utf8) {
        any = weight
      }
    }
    return (gzip ?? any ?? 0) > 0
  }

  /// One element: its coding and its weight in thousandths (1000 when no
  /// weight is given); nil for an empty or malformed element.
  static func parse(_ element: Substring.UTF8View) -> (Substring.UTF8View, Int)? {
    let parts = element.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
    let coding = trimmed(parts[0])
    guard !coding.isEmpty else { return nil }
    var weight = 1000
    for parameter in parts.dropFirst() {
      let text = trimmed(parameter)
      guard text.count >= 2, text.first == UInt8(ascii: "q") || text.first == UInt8(ascii: "Q"),
        text.dropFirst().first == UInt8(ascii: "=")
      else { return nil }
      guard let value = qvalue(text.dropFirst(2)) else { return nil }
      weight = value
    }
    return (coding, weight)
  }

  /// A qvalue (`0`, `0.5`, `1.000`: at most three decimals, at most 1) in
  /// thousandths; nil otherwise.
  static func qvalue(_ text: Substring.UTF8View) -> Int? {
    guard let first = text.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else {
      return nil
    }
    var value = Int(first - UInt8(ascii: "0")) * 1000
    let rest = text.dropFirst()
    if rest.isEmpty { return value }
    guard rest.first == UInt8(ascii: "."), rest.count <= 4 else { return nil }
    var scale = 100
    for digit in rest.dropFirst() {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
      value += Int(digit - UInt8(ascii: "0")) * scale
      scale /= 10
    }
    return value <= 1000 ? value : nil
  }

  private static func trimmed(_ text: Substring.UTF8View) -> Substring.UTF8View {
    let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    guard let start = text.firstIndex(where: { !isSpace($0) }),
      let end = text.lastIndex(where: { !isSpace($0) })
    else { return text[text.endIndex...] }
    return text[start...end]
  }

  private static func equalIgnoringCase(_ left: UInt8, _ right: UInt8) -> Bool {
    left | 0x20 == right | 0x20
  }
}
