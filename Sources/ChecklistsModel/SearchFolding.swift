import Foundation

/// Text as search compares it: case, accents and width folded away, in
/// any script (`É`, `é` and `e`; `Ё` and `е`; `Ａ` and `a`), as UTF-8 bytes.
///
/// Folded a scalar at a time: ASCII by a table, any other scalar once by
/// Foundation's folding and then from a memo, so an index of 12,000 items
/// costs lookups rather than 12,000 calls of `String.folding` (one call
/// per distinct letter: about 70 for Russian text).
package struct SearchFolding {
  private var memo: [UInt32: [UInt8]] = [:]

  package init() {}

  /// The folded bytes of `text`.
  package mutating func fold(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    append(text, to: &out)
    return out
  }

  /// Appends the folded bytes of `text` to `out`.
  package mutating func append(_ text: String, to out: inout [UInt8]) {
    for scalar in text.unicodeScalars { append(scalar, to: &out) }
  }

  /// Appends the folded bytes of one scalar: none for a combining mark.
  package mutating func append(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
    let value = scalar.value
    if value < 0x80 {
      let byte = UInt8(value)
      out.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
      return
    }
    if let folded = memo[value] {
      out.append(contentsOf: folded)
      return
    }
    let folded = Array(
      String(Character(scalar)).folding(
        options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil
      ).lowercased().utf8)
    memo[value] = folded
    out.append(contentsOf: folded)
  }

  /// Where `needle` first occurs in `haystack`, or nil (both folded).
  package static func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
    guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
    let first = needle[0]
    var start = 0
    let last = haystack.count - needle.count
    return haystack.withUnsafeBufferPointer { hay in
      needle.withUnsafeBufferPointer { pin in
        while start <= last {
          if hay[start] == first {
            var index = 1
            while index < pin.count && hay[start + index] == pin[index] { index += 1 }
            if index == pin.count { return start..<(start + pin.count) }
          }
          start += 1
        }
        return nil
      }
    }
  }

  /// `text` cut into runs, each marked when its characters hold part of a
  /// match of `needle` (folded): what a result shows highlighted. A match
  /// that starts or ends inside a character marks the whole character.
  package mutating func highlighted(_ text: String, needle: [UInt8]) -> [(String, Bool)] {
    var folded: [UInt8] = []
    var ends: [Int] = []
    let characters = Array(text)
    for character in characters {
      for scalar in character.unicodeScalars { append(scalar, to: &folded) }
      ends.append(folded.count)
    }
    var marked = [Bool](repeating: false, count: characters.count)
    var from = 0
    while from < folded.count,
      let range = Self.firstRange(of: needle, in: Array(folded[from...]))
    {
      let match = (range.lowerBound + from)..<(range.upperBound + from)
      var start = 0
      for (index, end) in ends.enumerated() {
        if start < match.upperBound && end > match.lowerBound { marked[index] = true }
        start = end
      }
      from = match.upperBound
    }
    var runs: [(String, Bool)] = []
    for (character, isMarked) in zip(characters, marked) {
      if let last = runs.last, last.1 == isMarked {
        runs[runs.count - 1].0.append(character)
      } else {
        runs.append((String(character), isMarked))
      }
    }
    return runs
  }
}
