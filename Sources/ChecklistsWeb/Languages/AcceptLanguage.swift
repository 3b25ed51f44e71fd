/// The language a browser asks for in `Accept-Language` (RFC 9110
/// §12.5.4): its ranges by quality value, highest first (ties in the
/// order given), each matched to a language of ours whole (`de`, `en-XA`)
/// or by its primary subtag (`de-AT` → `de`); a range of quality 0 is
/// refused, `*` is English. Nil when nothing matches: the caller's default.
enum AcceptLanguage {
  static func preferred(_ header: String?) -> Language? {
    guard let header, !header.isEmpty else { return nil }
    var ranges: [(range: Substring, quality: Int, order: Int)] = []
    for (order, element) in header.split(separator: ",").enumerated() {
      let parts = element.split(separator: ";")
      guard let first = parts.first else { continue }
      let range = first.trimmingWhitespace()
      guard !range.isEmpty else { continue }
      var quality = 1000
      for parameter in parts.dropFirst() {
        let pair = parameter.trimmingWhitespace()
        guard pair.lowercased().hasPrefix("q=") else { continue }
        guard let value = Self.quality(pair.dropFirst(2)) else {
          quality = -1
          break
        }
        quality = value
      }
      if quality > 0 { ranges.append((range, quality, order)) }
    }
    ranges.sort { $0.quality != $1.quality ? $0.quality > $1.quality : $0.order < $1.order }
    for (range, _, _) in ranges {
      if range == "*" { return .english }
      if let language = Language(tag: range) { return language }
      if let dash = range.firstIndex(of: "-"), let language = Language(tag: range[..<dash]),
        Language.offered.contains(language)
      {
        return language
      }
    }
    return nil
  }

  /// A `qvalue` in thousandths: `0`, `0.5`, `1`, `1.000`; nil for anything else.
  static func quality(_ text: Substring) -> Int? {
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let whole = parts.first, whole == "0" || whole == "1" else { return nil }
    var thousandths = whole == "1" ? 1000 : 0
    if parts.count == 2 {
      let fraction = parts[1]
      guard fraction.count <= 3, fraction.allSatisfy({ $0 >= "0" && $0 <= "9" }) else { return nil }
      let padded = fraction + String(repeating: "0", count: 3 - fraction.count)
      let value = Int(padded) ?? 0
      if whole == "1" && value != 0 { return nil }
      thousandths += value
    }
    return thousandths
  }
}

extension Substring {
  fileprivate func trimmingWhitespace() -> Substring {
    var text = self
    while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
    while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
    return text
  }
}
