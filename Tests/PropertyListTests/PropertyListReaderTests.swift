import Foundation
import PropertyList
import TestSupport
import Testing

extension TestPlist {
  /// The value with each dictionary's entries sorted by key (our reader keeps no order).
  var canonical: TestPlist {
    switch self {
    case .dictionary(let entries):
      .dictionary(
        entries.map { Entry(key: $0.key, value: $0.value.canonical) }.sorted { $0.key < $1.key })
    case .array(let members): .array(members.map(\.canonical))
    default: self
    }
  }

  /// What `list` holds from `index` down, as a value (the tests' lists are small trees).
  init(_ list: PropertyList, _ index: Int? = nil) {
    switch list[index ?? list.top] {
    case .dictionary(let entries):
      self = .dictionary(
        entries.map { Entry(key: $0.key, value: TestPlist(list, $0.value)) }.sorted {
          $0.key < $1.key
        })
    case .array(let members): self = .array(members.map { TestPlist(list, $0) })
    case .string(let text): self = .string(text)
    case .integer(let number): self = .integer(number)
    case .real(let number): self = .real(number)
    case .bool(let flag): self = .bool(flag)
    case .date(let seconds): self = .date(seconds)
    case .data(let bytes): self = .data(bytes)
    case .uid(let number): self = .uid(number)
    }
  }
}

/// What reading `bytes` gives: the value, or the failure's message.
func read(_ bytes: [UInt8]) -> Result<TestPlist, PropertyListError> {
  Result { () throws(PropertyListError) in TestPlist(try PropertyList(reading: bytes)) }
}

func readFailure(_ bytes: [UInt8]) -> String? {
  if case .failure(let failure) = read(bytes) { failure.message } else { nil }
}

/// Every kind of value, nested, with text that is not ASCII and needs escaping.
let everyKind = TestPlist.dict([
  "string": .string("Crème & <brûlée> 🍮 \"quoted\" 'single'"),
  "empty string": .string(""),
  "integers": .array([
    .integer(0), .integer(-1), .integer(255), .integer(65_536), .integer(Int64.max),
    .integer(Int64.min),
  ]),
  "reals": .array([.real(0.5), .real(-1e300), .real(3.25)]),
  "flags": .array([.bool(true), .bool(false)]),
  "date": .date(800_000_000),
  "old date": .date(-978_307_200),
  "data": .data([0, 1, 2, 250, 255]),
  "empty data": .data([]),
  "nested": .dict([
    "array": .array([]), "dict": .dict([:]), "deeper": .array([.array([.string("x")])]),
  ]),
  "$class": .uid(7),
])

@Suite("Our property list readers read what Foundation and our writers write")
struct PropertyListReaderTests {
  @Test("Foundation's binary and XML plists read back every kind of value")
  func foundationWritten() throws {
    var value = everyKind
    guard case .dictionary(var entries) = value else { return }
    entries.removeAll { $0.key == "$class" }  // Foundation writes UIDs only for archives
    value = .dictionary(entries)
    let object = try PropertyListSerialization.propertyList(
      from: Data(value.xml), format: nil)
    for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
      let bytes = try PropertyListSerialization.data(
        fromPropertyList: object, format: format, options: 0)
      #expect(try read([UInt8](bytes)).get() == value.canonical, "\(format)")
    }
  }

  @Test("Our own writers' plists read back, UIDs included")
  func ourWriters() throws {
    #expect(try read(everyKind.binary).get() == everyKind.canonical)
    #expect(try read(everyKind.xml).get() == everyKind.canonical)
  }

  @Test("Random trees read back equal from both encodings", arguments: 0..<4)
  func randomTrees(seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<50 {
      let value = Self.randomValue(depth: 0, &generator)
      #expect(try read(value.binary).get() == value.canonical)
      #expect(try read(value.xml).get() == value.canonical)
    }
  }

  static func randomValue(depth: Int, _ generator: inout SeededGenerator) -> TestPlist {
    let texts = [
      "", "a", "Milk", "é", "🥚 eggs", "<&>", "]]>", "$null", "CF$UID",
      String(repeating: "x", count: 20),
    ]
    switch Int.random(in: 0..<(depth < 5 ? 10 : 8), using: &generator) {
    case 0: return .string(texts.randomElement(using: &generator)!)
    case 1:
      return .integer(
        Int64.random(in: Int64.min...Int64.max, using: &generator)
          >> Int64.random(in: 0..<64, using: &generator))
    case 2: return .real(Double(Int.random(in: -1_000...1_000, using: &generator)) / 8)
    case 3: return .bool(Bool.random(using: &generator))
    case 4: return .date(Double(Int.random(in: -2_000_000_000...2_000_000_000, using: &generator)))
    case 5:
      return .data(
        (0..<Int.random(in: 0..<20, using: &generator)).map { _ in
          UInt8.random(in: 0...255, using: &generator)
        })
    case 6: return .uid(UInt64.random(in: 0...1_000, using: &generator))
    case 7: return .string(String(Int.random(in: 0...100_000, using: &generator)))
    case 8:
      return .array(
        (0..<Int.random(in: 0..<6, using: &generator)).map { _ in
          randomValue(depth: depth + 1, &generator)
        })
    default:
      var keys = Set<String>()
      var entries: [TestPlist.Entry] = []
      for _ in 0..<Int.random(in: 0..<6, using: &generator) {
        let key =
          texts.randomElement(using: &generator)! + String(Int.random(in: 0..<3, using: &generator))
        guard keys.insert(key).inserted, key != "CF$UID0" else { continue }
        entries.append(.init(key: key, value: randomValue(depth: depth + 1, &generator)))
      }
      return .dictionary(entries)
    }
  }
}

@Suite("The XML reader is strict, and says where it stopped")
struct XMLPropertyListReaderTests {
  func xml(_ body: String) -> [UInt8] {
    Array(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n\(body)\n</plist>\n"
        .utf8)
  }

  @Test("Entities, character references, CDATA and comments")
  func text() throws {
    let bytes = xml(
      "<!-- a comment --><array><string>a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; &#233;&#x1F95A;</string><!-- between -->"
        + "<string><![CDATA[<raw> & ]]>tail</string><string/><string></string></array>")
    #expect(
      try read(bytes).get()
        == .array([
          .string("a <b> & \"c\" 'd' é🥚"), .string("<raw> & tail"), .string(""), .string(""),
        ]))
  }

  @Test("A value without <plist> after the DOCTYPE, and a byte-order mark")
  func bare() throws {
    let bytes = Array("\u{FEFF}<!DOCTYPE plist><array><true/><false></false></array>".utf8)
    #expect(try read(bytes).get() == .array([.bool(true), .bool(false)]))
    #expect(
      readFailure(Array("<array><true/></array>".utf8)) == "This file is not a property list.")
    #expect(readFailure(Array("<plist><array><true/></array></plist><!-- end -->".utf8)) == nil)
  }

  @Test("Integers in decimal and hexadecimal, reals, dates and data")
  func scalars() throws {
    let bytes = xml(
      """
      <array><integer> -42 </integer><integer>0x1F</integer><integer>+7</integer><real>2.5e3</real>
      <real>-infinity</real><date>2001-01-01T00:00:00Z</date><date>1970-01-01T00:00:00Z</date>
      <date>2024-02-29T23:59:59Z</date><data>
        AAEC
        +v8=
      </data><data></data></array>
      """)
    #expect(
      try read(bytes).get()
        == .array([
          .integer(-42), .integer(31), .integer(7), .real(2_500), .real(-.infinity), .date(0),
          .date(-978_307_200), .date(730_943_999), .data([0, 1, 2, 250, 255]), .data([]),
        ]))
  }

  @Test("Dates are in the proleptic Gregorian calendar, as plistlib's, before 1582 too")
  func gregorian() throws {
    // Found by fuzzing: Foundation on Linux writes this date as 1442-12-23 (Julian).
    #expect(try read(xml("<date>1443-01-01T00:00:00Z</date>")).get() == .date(-17_608_838_400))
    #expect(try read(xml("<date>0001-01-01T00:00:00Z</date>")).get() == .date(-63_113_904_000))
    #expect(try read(xml("<date>9999-12-31T23:59:59Z</date>")).get() == .date(252_423_993_599))
  }

  @Test("A CF$UID dictionary is a UID; with another key it is a dictionary")
  func uids() throws {
    #expect(try read(xml("<dict><key>CF$UID</key><integer>12</integer></dict>")).get() == .uid(12))
    #expect(
      try read(xml("<dict><key>CF$UID</key><integer>12</integer><key>x</key><true/></dict>")).get()
        == .dict(["CF$UID": .integer(12), "x": .bool(true)]).canonical)
    #expect(
      try read(xml("<dict><key>CF$UID</key><string>12</string></dict>")).get()
        == .dict(["CF$UID": .string("12")]))
  }

  @Test(
    "Malformed XML is refused with its line and column",
    arguments: [
      ("<dict><key>a</key></dict>", "line 3, column 19: the key “a” has no value"),
      (
        "<dict><string>a</string></dict>",
        "line 3, column 7: expected a <key> in the dictionary, found <string>"
      ),
      ("<array><string>a</array>", "line 3, column 17: expected </string>"),
      ("<array>", "line 4, column 1: </plist> closes nothing that is open"),
      ("<array></dict>", "line 3, column 8: </dict> closes nothing that is open"),
      ("<array><foo/></array>", "line 3, column 8: <foo> is not an element of property lists"),
      ("<string a=\"1\">x</string>", "line 3, column 9: <string> has attributes or is not closed"),
      ("<integer>12x</integer>", "line 3, column 1: <integer> does not hold an integer"),
      (
        "<integer>9223372036854775808</integer>",
        "line 3, column 1: <integer> does not hold an integer"
      ),
      (
        "<date>2023-02-29T00:00:00Z</date>",
        "line 3, column 1: <date> does not hold a date of the form 2026-05-01T09:00:00Z"
      ),
      (
        "<date>2023-02-28</date>",
        "line 3, column 1: <date> does not hold a date of the form 2026-05-01T09:00:00Z"
      ),
      ("<data>AAE</data>", "line 3, column 1: <data> does not hold base64"),
      ("<data>AA=E</data>", "line 3, column 1: <data> does not hold base64"),
      ("<string>&bogus;</string>", "line 3, column 9: &bogus; is not an entity of XML"),
      ("<string>&#0;</string>", "line 3, column 9: &#0; is not a valid character reference"),
      (
        "<string>&#xD800;</string>", "line 3, column 9: &#xD800; is not a valid character reference"
      ),
      ("<string>a & b</string>", "line 3, column 11: an & starts no entity"),
      (
        "<string>a<b/></string>",
        "line 3, column 10: <string> holds an element; it may hold only text"
      ),
      ("<key>a</key>", "line 3, column 1: a <key> stands outside a dictionary"),
      (
        "<dict><key>a</key><true/><key>a</key><true/></dict>",
        "line 3, column 26: the dictionary holds the key “a” twice"
      ),
      ("<true>x</true>", "line 3, column 7: expected </true>"),
      ("<true/><true/>", "line 3, column 8: expected </plist>"),
      ("héllo", "line 3, column 1: text stands where an element should"),
    ])
  func malformed(body: String, expected: String) {
    #expect(readFailure(xml(body)) == "This XML property list is malformed at \(expected).")
  }

  @Test("More after the plist, a DOCTYPE with declarations, an unclosed comment")
  func outside() {
    #expect(
      readFailure(Array("<plist><true/></plist><plist/>".utf8))
        == "This XML property list is malformed at line 1, column 23: more follows the property list."
    )
    #expect(
      readFailure(
        Array("<!DOCTYPE plist [<!ENTITY a \"aaaa\">]><plist><string>&a;</string></plist>".utf8))
        == "This XML property list is malformed at line 1, column 17: a DOCTYPE with declarations of its own is not read."
    )
    #expect(
      readFailure(Array("<plist><!-- open <true/></plist>".utf8))
        == "This XML property list is malformed at line 1, column 8: a comment is not closed.")
    #expect(
      readFailure(Array("<plist/>".utf8))
        == "This XML property list is malformed at line 1, column 9: the property list holds no value."
    )
  }

  @Test("A long name is shortened in the message")
  func longName() {
    let name = String(repeating: "a", count: 10_000)
    for body in ["<\(name)/>", "<array></\(name)>", "<dict><\(name)/></dict>"] {
      let message = readFailure(xml(body))
      #expect(message?.contains(String(repeating: "a", count: 40) + "…") == true)
      #expect((message?.count ?? 0) < 200)
    }
  }

  @Test("Bytes that are not UTF-8 are refused before anything is read")
  func notUTF8() {
    #expect(
      readFailure(xml("<string>\u{FF}</string>").map { $0 == 0xC3 ? 0xFF : $0 })
        == "This XML property list is not UTF-8 text.")
    #expect(
      readFailure([0xFE, 0xFF, 0x00, 0x3C] + Array("plist".utf8))
        == "This file is not a property list.")
  }

  @Test("Nesting stops at 32 levels, without recursion")
  func depth() {
    let deep = String(repeating: "<array>", count: 32) + String(repeating: "</array>", count: 32)
    #expect(readFailure(xml(deep)) == nil)
    let deeper = String(repeating: "<array>", count: 33) + String(repeating: "</array>", count: 33)
    #expect(
      readFailure(xml(deeper))
        == "This XML property list is malformed at line 3, column 225: containers nest more than 32 deep."
    )
    let hostile = String(repeating: "<array>", count: 200_000)
    #expect(readFailure(xml(hostile))?.contains("containers nest more than 32 deep") == true)
  }
}

@Suite("The binary reader checks every offset, count and reference")
struct BinaryPropertyListReaderTests {
  /// A file of `objects`, as `BinaryFile` lays them out, with 1-byte references.
  func file(_ objects: [[UInt8]], top: Int = 0) -> [UInt8] {
    var file = BinaryFile()
    file.referenceSize = 1
    file.objects = objects
    return file.bytes(top: top)
  }

  func damaged(_ what: String) -> String { "This property list is damaged: \(what)." }

  @Test("A hand-made file reads")
  func handMade() throws {
    let bytes = file([[0xA2, 1, 2], [0x51, 0x61], [0x62, 0x00, 0xE9, 0xD8, 0x3E]])
    #expect(readFailure(bytes) == damaged("string 2 is not valid UTF-16"))
    let valid = file([[0xA3, 1, 2, 3], [0x51, 0x61], [0x61, 0x00, 0xE9], [0x10, 0xFF]])
    #expect(try read(valid).get() == .array([.string("a"), .string("é"), .integer(255)]))
  }

  @Test("Its trailer, offsets and references must fit")
  func bounds() {
    #expect(readFailure(Array("bplist00".utf8) + [0, 0, 0]) == damaged("it is cut short"))
    var bytes = file([[0x09]])
    bytes[bytes.count - 17] = 9  // the object count's last byte: 9 objects
    #expect(readFailure(bytes) == damaged("its trailer does not fit the file"))
    bytes = file([[0x09]])
    bytes[bytes.count - 25] = 0  // the reference size
    #expect(readFailure(bytes) == damaged("its trailer is not valid"))
    bytes = file([[0x09]])
    bytes[bytes.count - 33] = 0xF0  // the one offset's last byte
    #expect(readFailure(bytes) == damaged("object 0 starts outside the object area"))
    #expect(
      readFailure(file([[0xA1, 5], [0x09]]))
        == damaged("container 0 refers to object 5, which the file does not hold"))
    #expect(readFailure(file([[0xA5, 1]])) == damaged("object 0 runs past the object area"))
    #expect(
      readFailure(file([[0x5F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]))
        == damaged("object 0 has no valid length"))
    #expect(
      readFailure(file([[0x5F, 0x10, 0xFF, 0x61]])) == damaged("object 0 runs past the object area")
    )
    #expect(readFailure(file([[0x13, 0x00]])) == damaged("object 0 runs past the object area"))
  }

  @Test("Objects of kinds a plist of values never holds")
  func markers() throws {
    for marker: UInt8 in [0x00, 0x0F, 0xC1, 0xB0, 0x71, 0x15, 0x21] {
      #expect(
        readFailure(file([[marker, 0, 0, 0, 0, 0, 0, 0, 0]]))
          == damaged(
            "object 0 has a marker (0x\(String(marker, radix: 16))) that a property list of values does not use"
          ))
    }
    #expect(
      readFailure(file([[0x52, 0x61, 0xE9]])) == damaged("string 0 is marked ASCII but is not"))
    #expect(
      readFailure(
        file([[0x14] + [UInt8](repeating: 0, count: 7) + [1] + [UInt8](repeating: 0, count: 8)]))
        == damaged("object 0 is an integer too large to read"))
    #expect(try read(file([[0x14] + [UInt8](repeating: 0xFF, count: 16)])).get() == .integer(-1))
    #expect(
      try read(
        file([
          [0x14] + [UInt8](repeating: 0, count: 8) + [0x7F] + [UInt8](repeating: 0xFF, count: 7)
        ])
      ).get()
        == .integer(Int64.max))
  }

  @Test("A date that is not a number reads as one (the importer refuses it)")
  func nanDate() {
    // Found by fuzzing (a date of NaN seconds, which no two NaNs compare equal to).
    guard
      case .success(.date(let seconds)) = read(file([[0x33] + [UInt8](repeating: 0xFF, count: 8)]))
    else {
      Issue.record("a NaN date did not read")
      return
    }
    #expect(seconds.isNaN)
  }

  @Test("Dictionary keys are strings, each once")
  func keys() {
    #expect(
      readFailure(file([[0xD1, 1, 1], [0x10, 0x01]]))
        == damaged("a key of dictionary 0 is not a string"))
    #expect(
      readFailure(file([[0xD2, 1, 1, 2, 2], [0x51, 0x61], [0x09]]))
        == "This property list is damaged: dictionary 0 holds the key “a” twice.")
  }

  @Test("Objects that overlap cannot multiply the work")
  func overlap() throws {
    // Two offsets name the same string: the file covers its bytes twice.
    let string: [UInt8] = [0x5F, 0x10, 0x20] + [UInt8](repeating: 0x61, count: 32)
    let bytes = BinaryFile.raw(
      body: [0xA2, 1, 2] + string, offsets: [8, 11, 11], referenceSize: 1)
    #expect(readFailure(bytes) == damaged("its objects overlap"))
    let honest = BinaryFile.raw(body: [0xA1, 1] + string, offsets: [8, 10], referenceSize: 1)
    #expect(try read(honest).get() == .array([.string(String(repeating: "a", count: 32))]))
  }

  @Test("A container that holds itself, and nesting past 32 levels")
  func nesting() {
    #expect(readFailure(file([[0xA1, 0]])) == damaged("a container holds itself"))
    #expect(
      readFailure(file([[0xA1, 1], [0xD1, 2, 0], [0x51, 0x6B]]))
        == damaged("a container holds itself"))
    let chain = (0..<33).map { $0 == 32 ? [UInt8(0xA0)] : [0xA1, UInt8($0 + 1)] }
    #expect(readFailure(file(chain)) == "This property list nests containers more than 32 deep.")
    let allowed = (0..<32).map { $0 == 31 ? [UInt8(0xA0)] : [0xA1, UInt8($0 + 1)] }
    #expect(readFailure(file(allowed)) == nil)
    // A chain met first on a shallow path, then on a deeper one, counts by the deeper.
    let shared = [[0xA2, 2, 1]] + (1..<32).map { [0xA1, UInt8($0 + 1)] } + [[0xA0]]
    #expect(readFailure(file(shared)) == "This property list nests containers more than 32 deep.")
  }
}

/// A failure's sentence is a catalogue phrase: its English, its values as
/// the file has them, and what is wrong a phrase of its own, so that the
/// import page can word all of it in the visitor's language.
@Suite struct PropertyListFailurePhraseTests {
  @Test func aMalformedXMLFileIsASentenceWithItsProblemAsAPhrase() throws {
    let xml =
      "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<array><strin>a</strin></array>\n</plist>"
    guard case .failure(let failure) = read(Array(xml.utf8)) else {
      Issue.record("read")
      return
    }
    #expect(
      failure.sentence.english
        == "This XML property list is malformed at line {{line}}, column {{column}}: {{problem}}.")
    #expect(failure.sentence.values == ["line": "3", "column": "8"])
    #expect(failure.problem?.english == "<{{element}}> is not an element of property lists")
    #expect(failure.problem?.values == ["element": "strin"])
    #expect(
      failure.message
        == "This XML property list is malformed at line 3, column 8: <strin> is not an element of property lists."
    )
    let words = [
      "This XML property list is malformed at line {{line}}, column {{column}}: {{problem}}.":
        "XML {{line}}:{{column}} — {{problem}}",
      "<{{element}}> is not an element of property lists": "<{{element}}>?",
    ]
    #expect(failure.text { words[$0] ?? $0 } == "XML 3:8 — <strin>?")
  }

  @Test func aDamagedBinaryFileNamesItsProblem() {
    guard
      case .failure(let failure) = read(Array("bplist00".utf8) + [UInt8](repeating: 0, count: 10))
    else {
      Issue.record("read")
      return
    }
    #expect(failure.sentence.english == "This property list is damaged: {{problem}}.")
    #expect(failure.problem?.english == "it is cut short")
    #expect(failure.message == "This property list is damaged: it is cut short.")
  }
}
