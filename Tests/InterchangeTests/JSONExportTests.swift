import ChecklistsModel
import Foundation
import TestSupport
import Testing

@testable import Interchange

/// The JSON export: the documented layout, every field, strings that stay
/// valid JSON whatever they hold, and the same bytes for the same lists.
@Suite struct JSONExportTests {
  let directory = TemporaryDirectory("json-export")

  @Test func theDocumentedExampleIsWhatTheExportWrites() throws {
    let exported = JSONExport.document(
      try Fixtures.documentedModel(), exportedAt: Fixtures.exportedAt)
    let example = try #require(try Fixtures.documentedJSON().first)
    #expect(String(decoding: exported, as: UTF8.self) == example)
  }

  @Test func everyFieldIsWrittenAndRecentlyDeletedIsNot() throws {
    let model = try Fixtures.model()
    #expect(!model.deletions.isEmpty)
    let exported = JSONExport.document(model, exportedAt: Fixtures.exportedAt)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(exported)) as? [String: Any])
    #expect(document["format"] as? String == "checklists")
    #expect(document["version"] as? Int == 1)
    #expect(document["exportedAt"] as? String == "2025-03-01T12:00:00Z")
    let lists = try #require(document["lists"] as? [[String: Any]])
    #expect(lists.count == model.lists.count)
    for (list, written) in zip(model.lists, lists) {
      #expect(Set(written.keys) == ["id", "name", "icon", "sort", "items"])
      #expect(written["id"] as? Int == list.id)
      #expect(written["name"] as? String == list.name)
      #expect(written["icon"] as? String == list.icon.rawValue)
      #expect(written["sort"] as? String == list.sort.rawValue)
      let items = try #require(written["items"] as? [[String: Any]])
      #expect(items.count == list.items.count)
      for (item, writtenItem) in zip(list.items, items) {
        #expect(writtenItem["id"] as? Int == item.id)
        #expect(writtenItem["text"] as? String == item.text)
        #expect((writtenItem["checked"] as? NSNumber)?.boolValue == item.checked)
        #expect((writtenItem["shouldRemind"] as? NSNumber)?.boolValue == item.shouldRemind)
        if let due = item.dueDate {
          #expect(writtenItem["dueDate"] as? String == ISO8601DateFormatter().string(from: due))
        } else {
          #expect(writtenItem["dueDate"] == nil)
        }
      }
    }
    let text = String(decoding: exported, as: UTF8.self)
    #expect(!text.contains("Deleted, not exported") && !text.contains("Gone with its list"))
    #expect(text.contains(#""dueDate": "1970-01-01T00:00:00Z""#))
    #expect(text.contains(#""dueDate": "9999-12-31T23:59:59Z""#))
  }

  @Test func theSameListsGiveTheSameBytesInAFixedOrder() throws {
    let model = try Fixtures.model()
    let first = JSONExport.document(model, exportedAt: Fixtures.exportedAt)
    #expect(first == JSONExport.document(model, exportedAt: Fixtures.exportedAt + 0.999))
    let text = String(decoding: first, as: UTF8.self)
    #expect(
      text.hasPrefix("{\n  \"format\": \"checklists\",\n  \"version\": 1,\n  \"exportedAt\": "))
    #expect(text.hasSuffix("\n  ]\n}\n"))
    // One item a line, its members in the documented order.
    let itemLines = text.split(separator: "\n").filter { $0.hasPrefix("        {\"id\": ") }
    #expect(itemLines.count == model.lists.reduce(0) { $0 + $1.items.count })
    for line in itemLines {
      let order = ["\"id\"", "\"text\"", "\"checked\"", "\"shouldRemind\""].map {
        line.range(of: $0)!.lowerBound
      }
      #expect(order == order.sorted(), "\(line)")
    }
  }

  @Test func noListsIsAnEmptyArray() {
    let text = String(
      decoding: JSONExport.document(DataModel(), exportedAt: Fixtures.exportedAt), as: UTF8.self)
    #expect(
      text
        == "{\n  \"format\": \"checklists\",\n  \"version\": 1,\n  \"exportedAt\": \"2025-03-01T12:00:00Z\",\n  \"lists\": []\n}\n"
    )
  }

  /// Every scalar a Swift string can hold, control characters included
  /// (the model never keeps those, the writer must not care), reads back
  /// the same through Foundation's parser.
  @Test func anyTextIsOneValidJSONString() throws {
    var samples = Fixtures.hostileTexts
    samples.append(String(String.UnicodeScalarView((0..<0x80).map { Unicode.Scalar($0)! })))
    samples.append("\u{2028}\u{2029}\u{2027}\u{202A}\u{E2}\u{80}")
    samples.append("")
    var generator = SeededGenerator(seed: 8259)
    for _ in 0..<300 {
      let scalars = (0..<Int.random(in: 0..<40, using: &generator)).map { _ -> Unicode.Scalar in
        let ranges: [ClosedRange<UInt32>] = [
          0...0x7F, 0x80...0x7FF, 0x2000...0x202F, 0x1F300...0x1FAFF,
        ]
        let range = ranges[Int.random(in: 0..<ranges.count, using: &generator)]
        return Unicode.Scalar(UInt32.random(in: range, using: &generator)) ?? "?"
      }
      samples.append(String(String.UnicodeScalarView(scalars)))
    }
    for sample in samples {
      var writer = JSONWriter(capacity: 0)
      writer.raw("[")
      writer.string(sample)
      writer.raw("]")
      let bytes = writer.bytes
      // No raw control character, U+2028 or U+2029 is left in the file.
      #expect(!bytes.contains { $0 < 0x20 })
      #expect(
        !String(decoding: bytes, as: UTF8.self).contains { $0 == "\u{2028}" || $0 == "\u{2029}" })
      let parsed = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String]
      #expect(parsed == [sample], "\(sample.debugDescription)")
    }
  }

  @Test func escapesAreTheShortOnes() {
    var writer = JSONWriter(capacity: 0)
    writer.string("a\"b\\c\nd\re\tf\u{8}g\u{C}h\u{1}i\u{1F}j/k\u{7F}l\u{2028}m\u{2029}n€")
    #expect(
      String(decoding: writer.bytes, as: UTF8.self)
        == #""a\"b\\c\nd\re\tf\bg\fh\u0001i\u001fj/k"# + "\u{7F}" + #"l\u2028m\u2029n€""#)
  }

  @Test func datesAreWholeSecondsInUTCAndClampedToWhatTheFormatHolds() {
    func written(_ seconds: Double) -> String {
      var writer = JSONWriter(capacity: 0)
      writer.date(seconds)
      return String(decoding: writer.bytes, as: UTF8.self)
    }
    #expect(written(1_740_848_400.999) == #""2025-03-01T17:00:00Z""#)
    #expect(written(951_782_400) == #""2000-02-29T00:00:00Z""#)
    #expect(written(-1) == #""1970-01-01T00:00:00Z""#)
    #expect(written(1e300) == #""9999-12-31T23:59:59Z""#)
    #expect(written(.infinity) == #""9999-12-31T23:59:59Z""#)
    #expect(written(-.infinity) == #""1970-01-01T00:00:00Z""#)
    #expect(written(.nan) == #""1970-01-01T00:00:00Z""#)
  }

  @Test func numbersAreDecimal() {
    for value in [0, 7, 10, 1_234_567, -42, Int.max, Int.min] {
      var writer = JSONWriter(capacity: 0)
      writer.number(value)
      #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
    }
  }

  /// The export of every fixture, and the documented example, against the
  /// JSON Schema (`jsonschema`, draft 2020-12, with its date-time check);
  /// and a broken export against it, which must fail.
  @Test func theExportMatchesItsJSONSchema() throws {
    let model = try Fixtures.model()
    let files = [
      ("fixtures.json", JSONExport.document(model, exportedAt: Fixtures.exportedAt)),
      ("empty.json", JSONExport.document(DataModel(), exportedAt: Fixtures.exportedAt)),
      ("documented.json", Array(try #require(try Fixtures.documentedJSON().first).utf8)),
      (
        "broken.json",
        Array(
          String(
            decoding: JSONExport.document(model, exportedAt: Fixtures.exportedAt), as: UTF8.self
          )
          .replacingOccurrences(of: #""checked": true"#, with: #""checked": "yes""#).utf8)
      ),
    ]
    var paths: [String] = []
    for (name, bytes) in files {
      paths.append(directory.appending(name))
      FileManager.default.createFile(atPath: paths.last!, contents: Data(bytes))
    }
    let output = try Python.run(
      Self.schemaCheck, arguments: [Fixtures.schemaPath] + paths, in: directory)
    #expect(
      output.split(separator: "\n") == [
        "fixtures.json: 0", "empty.json: 0", "documented.json: 0", "broken.json: invalid",
      ], "\(output)")
  }

  static let schemaCheck = #"""
    import json, os, sys
    import jsonschema
    schema = json.load(open(sys.argv[1], encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    for path in sys.argv[2:]:
        errors = list(validator.iter_errors(json.load(open(path, encoding="utf-8"))))
        name = os.path.basename(path)
        if name == "broken.json":
            print(name + ": " + ("invalid" if errors else "valid"))
        else:
            print(name + ": " + str(len(errors)))
            for error in errors:
                print("  " + error.message)
    """#
}
