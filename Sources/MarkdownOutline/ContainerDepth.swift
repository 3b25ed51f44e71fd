/// A guard, checked before parsing, against containers nested without end
/// on one line: `> > > …` or `- - - …` (or `1. 1. …`) opens a block quote or
/// a list and its item for each marker, so 1 MB of them made cmark-gfm build
/// hundreds of thousands of nodes (400,000 block quotes or 300,000 lists
/// took 2 to 4 s to read and answer through the backend, debug build). A
/// task list nests a few levels; a line that opens more than
/// `maximumDepth` containers is refused. Nesting that grows by one level a
/// line repeats every outer marker or its indentation on each line, so its
/// bytes grow with the square of its depth and 1 MB holds at most about
/// 1,000 levels, which the parser takes in its stride.
package enum ContainerDepth {
  package static let maximumDepth = 32

  static func check(_ source: UnsafeBufferPointer<UInt8>) throws(MarkdownOutlineError) {
    var line = 1
    var index = 0
    while index < source.count {
      let start = index
      let depth = markers(source, from: &index)
      while index < source.count, source[index] != newline {
        index += 1
      }
      if depth > maximumDepth, !isThematicBreak(source[start..<index]) {
        throw .tooDeep(line: line)
      }
      index += 1
      line += 1
    }
  }

  /// `- - -` or `* * *` alone on a line is a thematic break, which opens nothing.
  static func isThematicBreak(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    let marks = line.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != 0x0D }
    guard let first = marks.first,
      first == UInt8(ascii: "-") || first == UInt8(ascii: "*") || first == UInt8(ascii: "_")
    else { return false }
    return marks.allSatisfy { $0 == first }
  }

  private static let newline = UInt8(ascii: "\n")

  /// The block quote and list markers that open the line at `index` (each
  /// after up to three spaces), moving `index` past them.
  static func markers(_ source: UnsafeBufferPointer<UInt8>, from index: inout Int) -> Int {
    func at(_ offset: Int) -> UInt8? { offset < source.count ? source[offset] : nil }
    func isSpace(_ byte: UInt8?) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    var count = 0
    while true {
      var next = index
      while next - index < 3, at(next) == UInt8(ascii: " ") { next += 1 }
      guard let first = at(next) else { return count }
      if first == UInt8(ascii: ">") {
        next += 1
      } else if first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
        || first == UInt8(ascii: "*")
      {
        guard isSpace(at(next + 1)) else { return count }
        next += 1
      } else {
        let digits = next
        while let digit = at(next), digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9"),
          next - digits < 9
        {
          next += 1
        }
        guard next > digits, at(next) == UInt8(ascii: ".") || at(next) == UInt8(ascii: ")"),
          isSpace(at(next + 1))
        else { return count }
        next += 1
      }
      if isSpace(at(next)) { next += 1 }
      count += 1
      index = next
    }
  }
}
