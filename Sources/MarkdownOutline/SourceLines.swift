/// Where each line of a document starts, to read a task's checkbox from the
/// source at the position cmark gives its item. Lines end as cmark ends
/// them: at `\n`, `\r\n` or `\r`. Lives only during one parse.
struct SourceLines {
  private let source: UnsafeBufferPointer<UInt8>
  /// The offset of each line's first byte; line 1 starts at 0.
  private var starts: [Int] = [0]

  init(_ source: UnsafeBufferPointer<UInt8>) {
    self.source = source
    var index = 0
    while index < source.count {
      let byte = source[index]
      index += 1
      if byte == UInt8(ascii: "\r"), index < source.count, source[index] == UInt8(ascii: "\n") {
        index += 1
      }
      if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { starts.append(index) }
    }
  }

  /// Whether the box of the task item whose marker is at `line` and byte
  /// `column` (both 1-based) holds an `x` or `X`; nil when there is no
  /// list marker and box at that place.
  func taskBox(line: Int, column: Int) -> Bool? {
    guard line >= 1, line <= starts.count, column >= 1 else { return nil }
    let lineEnd = line < starts.count ? starts[line] : source.count
    var index = starts[line - 1] + column - 1
    func byte() -> UInt8? { index < lineEnd ? source[index] : nil }
    guard let marker = byte() else { return nil }
    if marker == UInt8(ascii: "-") || marker == UInt8(ascii: "+") || marker == UInt8(ascii: "*") {
      index += 1
    } else {
      var digits = 0
      while let digit = byte(), digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9"), digits < 9 {
        index += 1
        digits += 1
      }
      guard digits > 0, let delimiter = byte(),
        delimiter == UInt8(ascii: ".") || delimiter == UInt8(ascii: ")")
      else { return nil }
      index += 1
    }
    while let space = byte(), space == UInt8(ascii: " ") || space == UInt8(ascii: "\t") {
      index += 1
    }
    guard byte() == UInt8(ascii: "[") else { return nil }
    index += 1
    guard let mark = byte() else { return nil }
    index += 1
    guard byte() == UInt8(ascii: "]") else { return nil }
    switch mark {
    case UInt8(ascii: "x"), UInt8(ascii: "X"): return true
    case UInt8(ascii: " "): return false
    default: return nil
    }
  }
}
