import AppArchiveFixture
import Foundation
import Interchange
import TestSupport
import Testing

/// The end-to-end tests upload files that `Tests/EndToEnd/app_fixtures.py` assembles with
/// `plistlib`; these tests prove that builder against the importer first.
@Suite("The Python builder of the app's files writes what the importer reads")
struct PythonFixtureTests {
  struct Variant: Sendable, CustomTestStringConvertible {
    var form: AppArchiveFixture.Form
    var format: AppArchiveFixture.Format
    var classPrefix: String?
    var stringObjects = false
    var testDescription: String {
      "\(form.rawValue) \(format) \(classPrefix ?? "-") \(stringObjects ? "NSMutableString" : "")"
    }
  }

  static let variants: [Variant] = [
    .init(form: .keyedArchive, format: .binary, classPrefix: nil),
    .init(form: .keyedArchive, format: .binary, classPrefix: "Checklists", stringObjects: true),
    .init(form: .keyedArchive, format: .xml, classPrefix: "Checklists"),
    .init(form: .keyedArchive, format: .xml, classPrefix: nil, stringObjects: true),
    .init(form: .codable, format: .binary, classPrefix: nil),
    .init(form: .codable, format: .xml, classPrefix: nil),
  ]

  @Test(
    "Each form and format imports with due dates, checkmarks and reminders", arguments: variants)
  func imports(variant: Variant) throws {
    var description =
      try JSONSerialization.jsonObject(
        with: JSONEncoder().encode(
          AppArchiveFixture.Description(
            form: variant.form, format: variant.format, classPrefix: variant.classPrefix,
            lists: appLists))) as! [String: Any]
    description["stringObjects"] = variant.stringObjects
    let bytes = try Self.python(
      input: JSONSerialization.data(withJSONObject: description))
    let text = String(decoding: bytes, as: UTF8.self)
    if variant.form == .keyedArchive {
      #expect(text.contains((variant.classPrefix.map { $0 + "." } ?? "") + "ChecklistItem"))
      #expect(text.contains("NSMutableString") == variant.stringObjects)
    }
    #expect(bytes.starts(with: Array((variant.format == .xml ? "<?xml" : "bplist00").utf8)))
    #expect(AppArchiveImport.looksLike(bytes))
    #expect(try AppArchiveImport.lists(from: bytes) == importedAppLists)
  }

  /// Runs `app_fixtures.py` with `input` on standard input; returns its output.
  static func python(input: Data) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", BuiltTool.packageRoot + "/Tests/EndToEnd/app_fixtures.py"]
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    stdin.fileHandleForWriting.write(input)
    try stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "app_fixtures.py failed")
    return [UInt8](output)
  }
}
