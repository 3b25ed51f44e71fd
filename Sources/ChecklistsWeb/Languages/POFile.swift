/// A gettext catalogue (`.po`) as written: its entries, each with the
/// translator's comments, and the header's `Plural-Forms`.
///
/// Read strictly, so a mistake stops the start with its line: `msgctxt`
/// is not used here and is refused, as is text outside a quoted string.
/// A `#, fuzzy` entry is kept but counts as untranslated.
struct POFile: Sendable {
  struct Entry: Sendable, Equatable {
    var msgid: String
    var msgidPlural: String?
    /// `msgstr`, or `msgstr[0]`, `msgstr[1]`… of a plural entry.
    var msgstr: [String]
    /// `#.` lines: what the translator is told.
    var comments: [String] = []
    var isFuzzy = false
    var line: Int

    /// Translated: not fuzzy, and every form written.
    var isTranslated: Bool { !isFuzzy && !msgstr.isEmpty && msgstr.allSatisfy { !$0.isEmpty } }
  }

  struct Failure: Error, CustomStringConvertible, Equatable {
    let file: String
    let line: Int
    let message: String
    var description: String { "\(file):\(line): \(message)" }
  }

  /// Every entry but the header, in the file's order.
  let entries: [Entry]
  /// The header's `nplurals`, nil when it has no `Plural-Forms`.
  let pluralCount: Int?

  init(_ text: String, file: String) throws(Failure) {
    var parser = Parser(file: file)
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      try parser.read(line, number: index + 1)
    }
    try parser.finishEntry()
    let header = parser.entries.first { $0.msgid.isEmpty }
    entries = parser.entries.filter { !$0.msgid.isEmpty }
    pluralCount = header.flatMap { Self.pluralCount(header: $0.msgstr.first ?? "") }
  }

  /// `nplurals=N` of the header's `Plural-Forms:` line.
  static func pluralCount(header: String) -> Int? {
    for line in header.split(separator: "\n") where line.hasPrefix("Plural-Forms:") {
      guard let start = line.range(of: "nplurals=") else { return nil }
      return Int(line[start.upperBound...].prefix { $0.isNumber })
    }
    return nil
  }

  private struct Parser {
    let file: String
    var entries: [Entry] = []
    var comments: [String] = []
    var fuzzy = false
    var msgid: String?
    var msgidPlural: String?
    var msgstr: [Int: String] = [:]
    var entryLine = 0
    /// Where a continuation line's string goes.
    enum Field {
      case none, msgid, msgidPlural
      case msgstr(Int)
    }
    var field = Field.none

    init(file: String) { self.file = file }

    mutating func read(_ raw: Substring, number: Int) throws(Failure) {
      let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
      if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
        try finishEntry()
        return
      }
      if line.hasPrefix("#") {
        if msgid != nil, case .msgstr = field { try finishEntry() }
        if line.hasPrefix("#.") {
          comments.append(String(line.dropFirst(2).drop { $0 == " " }))
        } else if line.hasPrefix("#,") {
          fuzzy =
            fuzzy || line.dropFirst(2).split(separator: ",").contains { $0.trimmed == "fuzzy" }
        }
        return
      }
      if line.hasPrefix("\"") {
        let text = try string(line, number: number)
        switch field {
        case .none: throw failure(number, "a string outside an entry")
        case .msgid: msgid! += text
        case .msgidPlural: msgidPlural! += text
        case .msgstr(let index): msgstr[index]! += text
        }
        return
      }
      guard let space = line.firstIndex(of: " ") else { throw failure(number, "not a .po line") }
      let keyword = line[..<space]
      let text = try string(line[line.index(after: space)...].drop { $0 == " " }, number: number)
      switch keyword {
      case "msgid":
        if msgid != nil { try finishEntry() }
        msgid = text
        entryLine = number
        field = .msgid
      case "msgid_plural":
        guard msgid != nil, msgidPlural == nil else {
          throw failure(number, "msgid_plural out of place")
        }
        msgidPlural = text
        field = .msgidPlural
      case "msgstr":
        guard msgid != nil, msgstr.isEmpty else { throw failure(number, "msgstr out of place") }
        msgstr[0] = text
        field = .msgstr(0)
      case "msgctxt":
        throw failure(number, "msgctxt is not used by this catalogue")
      default:
        guard keyword.hasPrefix("msgstr["), keyword.hasSuffix("]"),
          let index = Int(keyword.dropFirst(7).dropLast()), index == msgstr.count, msgid != nil
        else { throw failure(number, "unknown keyword \(keyword)") }
        msgstr[index] = text
        field = .msgstr(index)
      }
    }

    mutating func finishEntry() throws(Failure) {
      defer {
        comments = []
        fuzzy = false
        msgid = nil
        msgidPlural = nil
        msgstr = [:]
        field = .none
      }
      guard let msgid else { return }
      guard !msgstr.isEmpty else { throw failure(entryLine, "msgid \"\(msgid)\" has no msgstr") }
      if msgidPlural == nil && msgstr.count != 1 {
        throw failure(entryLine, "msgstr[N] without msgid_plural")
      }
      if entries.contains(where: { $0.msgid == msgid }) {
        throw failure(entryLine, "msgid \"\(msgid)\" twice")
      }
      entries.append(
        Entry(
          msgid: msgid, msgidPlural: msgidPlural, msgstr: (0..<msgstr.count).map { msgstr[$0]! },
          comments: comments, isFuzzy: fuzzy, line: entryLine))
    }

    /// A quoted string with C escapes, the whole of `text`.
    func string(_ text: Substring, number: Int) throws(Failure) -> String {
      guard text.count >= 2, text.first == "\"", text.last == "\"" else {
        throw failure(number, "expected a quoted string")
      }
      var result = ""
      var escaped = false
      for character in text.dropFirst().dropLast() {
        if escaped {
          switch character {
          case "n": result.append("\n")
          case "t": result.append("\t")
          case "\"", "\\": result.append(character)
          default: throw failure(number, "unknown escape \\\(character)")
          }
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          throw failure(number, "a quote inside a string must be escaped")
        } else {
          result.append(character)
        }
      }
      if escaped { throw failure(number, "a string ends with a backslash") }
      return result
    }

    func failure(_ line: Int, _ message: String) -> Failure {
      Failure(file: file, line: line, message: message)
    }
  }
}

extension Substring {
  fileprivate var trimmed: Substring {
    var text = self
    while text.first == " " { text = text.dropFirst() }
    while text.last == " " { text = text.dropLast() }
    return text
  }
}
