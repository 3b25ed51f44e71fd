import Foundation
import HTMLTemplates
import XCTest

/// The official Mustache spec (`shared/mustache-spec/*.json`), one test per file; a failure
/// names every failing case.
final class MustacheSpecTests: XCTestCase {
  /// Cases not run, with why. Optional parts of the spec we chose not to build.
  static let skipped: [String: [String: String]] = [
    "inheritance.json": [
      "Standalone block":
        "block re-indentation (spec 1.3+): a standalone block's content takes the block tag's indentation",
      "Block reindentation":
        "block re-indentation (spec 1.3+): indentation removed at the definition, added at the expansion",
      "Intrinsic indentation":
        "block re-indentation (spec 1.3+): the default content's indentation applies to the override",
      "Nested block reindentation":
        "block re-indentation (spec 1.3+) of nested blocks",
    ]
  ]

  /// Files not run at all: lambdas need code in the data, which our values cannot hold.
  static let skippedFiles: Set<String> = ["~lambdas.json"]

  func testComments() throws { try runSpec("comments.json") }
  func testDelimiters() throws { try runSpec("delimiters.json") }
  func testInterpolation() throws { try runSpec("interpolation.json") }
  func testInverted() throws { try runSpec("inverted.json") }
  func testPartials() throws { try runSpec("partials.json") }
  func testSections() throws { try runSpec("sections.json") }
  func testInheritance() throws { try runSpec("inheritance.json") }

  /// Every spec file present is run by one of the tests above (or skipped on purpose).
  func testEverySpecFileIsRun() throws {
    let run: Set<String> = [
      "comments.json", "delimiters.json", "interpolation.json", "inverted.json", "partials.json",
      "sections.json", "inheritance.json",
    ]
    let files = try FileManager.default.contentsOfDirectory(atPath: try Self.specDirectory().path)
      .filter { $0.hasSuffix(".json") }
    for file in files where !run.contains(file) && !Self.skippedFiles.contains(file) {
      XCTFail("spec file \(file) is not run")
    }
    XCTAssertFalse(files.isEmpty)
  }

  // MARK: Running a file

  struct SpecFile: Decodable {
    let tests: [SpecCase]
  }

  struct SpecCase: Decodable {
    let name: String
    let data: JSONValue
    let template: String
    let partials: [String: String]?
    let expected: String
  }

  /// The spec's data as JSON: decoded by hand so that `true`, `85` and `1.21` stay a Bool,
  /// an Int and a Double.
  enum JSONValue: Decodable {
    case value(TemplateValue)

    init(from decoder: Decoder) throws {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .value(.null)
      } else if let flag = try? container.decode(Bool.self) {
        self = .value(.bool(flag))
      } else if let number = try? container.decode(Int.self) {
        self = .value(.int(number))
      } else if let number = try? container.decode(Double.self) {
        self = .value(.double(number))
      } else if let text = try? container.decode(String.self) {
        self = .value(.string(text))
      } else if let list = try? container.decode([JSONValue].self) {
        self = .value(.list(list.map(\.templateValue)))
      } else {
        let object = try container.decode([String: JSONValue].self)
        self = .value(.object(TemplateObject(object.mapValues(\.templateValue))))
      }
    }

    var templateValue: TemplateValue {
      switch self {
      case .value(let value): return value
      }
    }
  }

  func runSpec(_ fileName: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let url = try Self.specDirectory().appendingPathComponent(fileName)
    let spec = try JSONDecoder().decode(SpecFile.self, from: Data(contentsOf: url))
    let skipped = Self.skipped[fileName] ?? [:]
    var failures: [String] = []
    var passed = 0
    for test in spec.tests where skipped[test.name] == nil {
      // The template under test is one more template of the library, by a name no partial uses.
      let main = "\u{1}spec"
      var templates = test.partials ?? [:]
      templates[main] = test.template
      do {
        let library = try TemplateLibrary(templates: templates)
        let output = try library.render(main, context: test.data.templateValue)
        if output == test.expected {
          passed += 1
        } else {
          failures.append(
            "\(test.name): expected \(test.expected.debugDescription), got \(output.debugDescription)"
          )
        }
      } catch {
        failures.append("\(test.name): threw \(error)")
      }
    }
    XCTAssertEqual(
      failures, [], "\(fileName): \(failures.count) failing:\n" + failures.joined(separator: "\n"),
      file: file, line: line)
    let skippedHere = spec.tests.filter { skipped[$0.name] != nil }.map(\.name)
    print(
      "\(fileName): \(passed) passed, \(failures.count) failed, \(skippedHere.count) skipped"
        + (skippedHere.isEmpty ? "" : " (\(skippedHere.joined(separator: ", ")))"))
  }

  /// The official spec files: `$MUSTACHE_SPEC` when set, else `shared/mustache-spec` found
  /// by walking up from this file (checkouts sit beside `shared`), else the workplace's
  /// `/work/shared/mustache-spec` (a clone elsewhere, as CI makes). They are not copied
  /// into the repository.
  static func specDirectory() throws -> URL {
    if let configured = ProcessInfo.processInfo.environment["MUSTACHE_SPEC"] {
      return URL(fileURLWithPath: configured)
    }
    var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while directory.path != "/" {
      for candidate in ["shared/mustache-spec", "../shared/mustache-spec"] {
        let url = directory.appendingPathComponent(candidate).standardizedFileURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
          isDirectory.boolValue
        {
          return url
        }
      }
      directory.deleteLastPathComponent()
    }
    if FileManager.default.fileExists(atPath: "/work/shared/mustache-spec/sections.json") {
      return URL(fileURLWithPath: "/work/shared/mustache-spec")
    }
    throw XCTSkip("shared/mustache-spec not found above \(#filePath) nor in /work/shared")
  }
}
