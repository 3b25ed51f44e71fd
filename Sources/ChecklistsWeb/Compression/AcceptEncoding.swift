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
///
/// Read in place, byte by byte: splitting the field into arrays of
/// substrings cost ~12,500 instructions a request for a browser's
/// `gzip, deflate, br, zstd`, seven times a kept page's whole answer
/// (callgrind, `bench-web --profile N kept-gzip`).
enum AcceptEncoding {
  typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

  /// True when the answer to a request with this `Accept-Encoding` may be gzipped.
  static func allowsGzip(_ field: String?) -> Bool {
    guard var field else { return false }
    return field.withUTF8 { allowsGzip(in: $0[...]) }
  }

  static func allowsGzip(in field: Bytes) -> Bool {
    var gzip: Int?
    var any: Int?
    var start = field.startIndex
    while start <= field.endIndex {
      let end = field[start...].firstIndex(of: UInt8(ascii: ",")) ?? field.endIndex
      if let (coding, weight) = parse(field[start..<end]) {
        if equalIgnoringCase(coding, "gzip") || equalIgnoringCase(coding, "x-gzip") {
          gzip = max(gzip ?? 0, weight)
        } else if coding.count == 1 && coding.first == UInt8(ascii: "*") {
          any = weight
        }
      }
      start = end + 1
    }
    return (gzip ?? any ?? 0) > 0
  }

  /// One element: its coding and its weight in thousandths (1000 when no
  /// weight is given); nil for an empty or malformed element.
  static func parse(_ element: Bytes) -> (coding: Bytes, weight: Int)? {
    let codingEnd = element.firstIndex(of: UInt8(ascii: ";")) ?? element.endIndex
    let coding = trimmed(element[..<codingEnd])
    guard !coding.isEmpty else { return nil }
    var weight = 1000
    var start = codingEnd
    while start < element.endIndex {
      start += 1  // past the `;`
      let end = element[start...].firstIndex(of: UInt8(ascii: ";")) ?? element.endIndex
      let text = trimmed(element[start..<end])
      guard text.count >= 2, text.first! | 0x20 == UInt8(ascii: "q"),
        text[text.startIndex + 1] == UInt8(ascii: "=")
      else { return nil }
      guard let value = qvalue(text.dropFirst(2)) else { return nil }
      weight = value
      start = end
    }
    return (coding, weight)
  }

  /// A qvalue (`0`, `0.5`, `1.000`: at most three decimals, at most 1) in
  /// thousandths; nil otherwise.
  static func qvalue<Text: Collection<UInt8>>(_ text: Text) -> Int? {
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

  private static func trimmed(_ text: Bytes) -> Bytes {
    var start = text.startIndex
    var end = text.endIndex
    while start < end, text[start] == UInt8(ascii: " ") || text[start] == UInt8(ascii: "\t") {
      start += 1
    }
    while end > start, text[end - 1] == UInt8(ascii: " ") || text[end - 1] == UInt8(ascii: "\t") {
      end -= 1
    }
    return text[start..<end]
  }

  /// Whether `text` is `name` (lowercase ASCII letters and `-`), in any case.
  private static func equalIgnoringCase(_ text: Bytes, _ name: StaticString) -> Bool {
    guard text.count == name.utf8CodeUnitCount else { return false }
    let letters = name.utf8Start
    var index = 0
    for byte in text {
      let expected = letters[index]
      let isLetter = expected >= UInt8(ascii: "a") && expected <= UInt8(ascii: "z")
      guard (isLetter ? byte | 0x20 : byte) == expected else { return false }
      index += 1
    }
    return true
  }
}
