/// A guard, checked before parsing, against the inputs on which the
/// parser's time grows with the square of a paragraph's size.
///
/// Debian 12's cmark-gfm (0.29.0.gfm.6) walks back over the earlier
/// brackets and emphasis marks of a paragraph each time a link or image
/// closes in it (fixed upstream in 0.29.0.gfm.7 and later). Measured on
/// this machine, parsing alone, one paragraph: `![[]()` repeated takes
/// 0.16 s for 32 KB, 0.65 s for 64 KB and 2.4 s for 128 KB, so a 1 MB
/// upload would take minutes; `*[a](b) ` repeated 0.6 s for 128 KB. The
/// other known pathological inputs (nested brackets and block quotes,
/// emphasis without closers, deep lists, backticks, unclosed links and
/// comments, colliding reference labels) stay linear: under a second for
/// 1 MB.
///
/// The estimate cuts the document into runs of lines that may each be one
/// paragraph: a blank line, a bullet item, an item numbered 1, another
/// numbered item where no paragraph can be open or short of the open
/// item's column, an ATX heading (a run of its own), a code fence or a
/// deeper block quote certainly ends a paragraph; any other line may
/// continue one (an item numbered 2 cannot interrupt a paragraph). A run
/// costs its closing brackets times its brackets and emphasis marks
/// (`[`, `]`, `*`, `_`, `~`, `!`; not a task's own box, nor a character
/// escaped with a backslash, which is text), and the document is refused
/// when its runs cost more than `budget` together: at most about 0.1 s of
/// parsing for the worst input measured (0.8 to 1.4 ns per unit). Task
/// lists, bulleted or numbered, cost only within each task; an export
/// costs nothing, since it escapes every bracket.
enum InlineCost {
  static let budget = 50_000_000

  static func check(_ source: UnsafeBufferPointer<UInt8>) throws(MarkdownOutlineError) {
    var scan = Scan(source: source)
    var start = 0
    var line = 0
    while start < source.count {
      line += 1
      var end = start
      while end < source.count, source[end] != newline, source[end] != carriageReturn { end += 1 }
      try scan.line(start..<end, number: line)
      start = end + 1
      if end < source.count, source[end] == carriageReturn, start < source.count,
        source[start] == newline
      {
        start += 1
      }
    }
    try scan.endRun()
  }

  private static let newline = UInt8(ascii: "\n")
  private static let carriageReturn = UInt8(ascii: "\r")

  private struct Scan {
    let source: UnsafeBufferPointer<UInt8>
    var total = 0
    var closers = 0
    var marks = 0
    var runLine = 1
    var quoteDepth = 0
    /// The content column of the list item whose first line began the
    /// current run, while its paragraph certainly stays in it.
    var itemColumn: Int?
    /// Whether no paragraph is open: at the start, after a blank line or
    /// a heading.
    var afterBoundary = true

    init(source: UnsafeBufferPointer<UInt8>) { self.source = source }

    mutating func endRun() throws(MarkdownOutlineError) {
      total += closers * marks
      closers = 0
      marks = 0
      if total > InlineCost.budget { throw .tooIntricate(line: runLine) }
    }

    func isSpace(_ index: Int, _ end: Int) -> Bool {
      index < end && (source[index] == UInt8(ascii: " ") || source[index] == UInt8(ascii: "\t"))
    }

    func isBlank(from index: Int, to end: Int) -> Bool {
      var index = index
      while isSpace(index, end) { index += 1 }
      return index == end
    }

    mutating func line(_ range: Range<Int>, number: Int) throws(MarkdownOutlineError) {
      let end = range.upperBound
      var index = range.lowerBound
      var depth = 0
      var hasTab = false
      while true {
        var probe = index
        var spaces = 0
        while spaces < 3, probe < end, source[probe] == UInt8(ascii: " ") {
          probe += 1
          spaces += 1
        }
        guard probe < end, source[probe] == UInt8(ascii: ">") else { break }
        probe += 1
        if isSpace(probe, end) {
          hasTab = hasTab || source[probe] == UInt8(ascii: "\t")
          probe += 1
        }
        depth += 1
        index = probe
      }
      var indent = 0
      while isSpace(index, end) {
        hasTab = hasTab || source[index] == UInt8(ascii: "\t")
        indent += 1
        index += 1
      }
      defer { quoteDepth = depth }
      if index == end {
        try endRun()
        runLine = number + 1
        itemColumn = nil
        afterBoundary = true
        return
      }
      var startsBlock = depth > quoteDepth
      var isHeading = false
      var content = index
      // The content column of the list item this line certainly starts.
      var startsItem: Int?
      if indent < 4 {
        let first = source[index]
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: "*") {
          if isSpace(index + 1, end) {
            content = afterTaskBox(index + 1, end)
            if !isBlank(from: index + 1, to: end) {
              startsBlock = true
              startsItem = contentColumn(indent: indent, marker: index, after: index + 1, end)
            }
          }
        } else if let (marker, value) = orderedMarker(index, end), isSpace(marker, end) {
          content = afterTaskBox(marker, end)
          // Only an item numbered 1 may interrupt a paragraph. Another
          // starts an item where no paragraph is open (after a blank line
          // or a heading), or where the line falls short of the column of
          // the item whose paragraph is open, which then ends.
          let interrupts = value == 1 && !isBlank(from: marker, to: end)
          let shortOfItem = itemColumn.map { depth == quoteDepth && indent < $0 } ?? false
          if interrupts || afterBoundary || shortOfItem {
            startsBlock = true
            startsItem = contentColumn(indent: indent, marker: index, after: marker, end)
          }
        } else if first == UInt8(ascii: "#") {
          var hashes = index
          while hashes < end, source[hashes] == UInt8(ascii: "#") { hashes += 1 }
          if hashes - index <= 6, hashes == end || isSpace(hashes, end) {
            startsBlock = true
            isHeading = true
          }
        } else if first == UInt8(ascii: "`") || first == UInt8(ascii: "~") {
          var fence = index
          while fence < end, source[fence] == first { fence += 1 }
          // A backtick fence's info string may not hold a backtick.
          if fence - index >= 3,
            first == UInt8(ascii: "~") || !source[fence..<end].contains(UInt8(ascii: "`"))
          {
            startsBlock = true
          }
        }
      }
      if startsBlock {
        try endRun()
        runLine = number
      }
      // An open item's paragraph stays in that item while lines reach its
      // column; any other line may have moved it out (a thematic break, a
      // lazy line, a block quote), and then nothing is certain.
      if let startsItem, !hasTab {
        itemColumn = startsItem
      } else if hasTab || depth != quoteDepth || indent < (itemColumn ?? Int.max) {
        itemColumn = nil
      }
      afterBoundary = isHeading
      var escaped = false
      for byte in source[content..<end] {
        if escaped {
          escaped = false
          continue
        }
        switch byte {
        case UInt8(ascii: "\\"):
          escaped = true
        case UInt8(ascii: "]"):
          closers += 1
          marks += 1
          if closers & 1023 == 0, total + closers * marks > InlineCost.budget {
            throw .tooIntricate(line: runLine)
          }
        case UInt8(ascii: "["), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"),
          UInt8(ascii: "!"):
          marks += 1
        default:
          break
        }
      }
      if total + closers * marks > InlineCost.budget { throw .tooIntricate(line: runLine) }
      if isHeading {
        try endRun()
        runLine = number + 1
      }
    }

    /// After an ordered list marker of 1 to 9 digits at `index`: the index
    /// past its `.` or `)`, and its number.
    func orderedMarker(_ index: Int, _ end: Int) -> (Int, Int)? {
      var probe = index
      var value = 0
      while probe < end, probe - index < 9, source[probe] >= UInt8(ascii: "0"),
        source[probe] <= UInt8(ascii: "9")
      {
        value = value * 10 + Int(source[probe] - UInt8(ascii: "0"))
        probe += 1
      }
      guard probe > index, probe < end,
        source[probe] == UInt8(ascii: ".") || source[probe] == UInt8(ascii: ")")
      else { return nil }
      return (probe + 1, value)
    }

    /// The column where the content of a list item starts whose marker
    /// (ending before `after`) is at `marker`, `indent` spaces in: one to
    /// four spaces after the marker count, five or more are one and code.
    func contentColumn(indent: Int, marker: Int, after: Int, _ end: Int) -> Int? {
      var spaces = 0
      var probe = after
      while probe < end, source[probe] == UInt8(ascii: " ") {
        spaces += 1
        probe += 1
      }
      if probe < end, source[probe] == UInt8(ascii: "\t") { return nil }
      let width = after - marker
      return indent + width + (spaces >= 5 || probe == end ? 1 : spaces)
    }

    /// Past a task's box (`[ ]`, `[x]`, `[X]` and a space) after a list
    /// marker, which the block parser takes before any inline is read.
    func afterTaskBox(_ index: Int, _ end: Int) -> Int {
      var probe = index
      while isSpace(probe, end) { probe += 1 }
      guard probe + 3 < end, source[probe] == UInt8(ascii: "["),
        source[probe + 2] == UInt8(ascii: "]"),
        [UInt8(ascii: " "), UInt8(ascii: "x"), UInt8(ascii: "X")].contains(source[probe + 1]),
        isSpace(probe + 3, end)
      else { return index }
      return probe + 3
    }
  }
}
