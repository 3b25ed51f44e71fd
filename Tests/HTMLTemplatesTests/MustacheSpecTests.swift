import Foundation
import HTMLTemplates
import Testing

/// The official Mustache spec (`shared/mustache-spec/*.json`), one test case per spec case,
/// named by its file and its name, so that a failure names its case.
@Suite(
  "The official Mustache spec",
  .enabled(if: MustacheSpec.directory != nil, "shared/mustache-spec not found"))
struct MustacheSpecTests {
  @Test("A spec case renders what the spec expects", arguments: try MustacheSpec.cases())
  func specCase(_ test: MustacheSpec.Case) throws {
    // The template under test is one more template of the library, by a name no partial uses.
    let main = "\u{1}spec"
    var templates = test.partials ?? [:]
    templates[main] = test.template
    let library = try TemplateLibrary(templates: templates)
    let output = try library.render(main, context: test.data.templateValue)
    #expect(output == test.expected)
  }

  /// Every spec file present is run by the test above (or skipped on purpose).
  @Test("Every spec file present is run or skipped on purpose")
  func everySpecFileIsRun() throws {
    let directory = try #require(MustacheSpec.directory)
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".json") }
    for file in files
    where !MustacheSpec.files.contains(file) && !MustacheSpec.skippedFiles.contains(file) {
      Issue.record("spec file \(file) is not run")
    }
    #expect(!files.isEmpty)
  }
}

/// The spec files, the parts of them not run, and their cases.
enum MustacheSpec {
  /// The files whose cases are run.
  static let files = [
    "comments.json", "delimiters.json", "interpolation.json", "inverted.json", "partials.json",
    "sections.json", "inheritance.json",
  ]

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

  struct File: Decodable {
    let tests: [Case]
  }

  /// One case of a spec file; it prints as "file: name" in the test's results.
  struct Case: Decodable, Sendable, CustomTestStringConvertible {
    var file = ""
    let name: String
    let data: JSONValue
    let template: String
    let partials: [String: String]?
    let expected: String

    private enum CodingKeys: String, CodingKey {
      case name, data, template, partials, expected
    }

    var testDescription: String { "\(file): \(name)" }
  }

  /// The spec's data as JSON: decoded by hand so that `true`, `85` and `1.21` stay a Bool,
  /// an Int and a Double.
  enum JSONValue: Decodable, Sendable {
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

  /// Every case of `files` but the `skipped` ones, in file order; none when the spec is not
  /// found (the suite is then disabled).
  static func cases() throws -> [Case] {
    guard let directory else { return [] }
    return try files.flatMap { fileName in
      let url = directory.appendingPathComponent(fileName)
      let spec = try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
      return spec.tests.filter { skipped[fileName]?[$0.name] == nil }.map { test in
        var test = test
        test.file = fileName
        return test
      }
    }
  }

  /// The official spec files: `$MUSTACHE_SPEC` when set, else `shared/mustache-spec` found
  /// by walking up from this file (checkouts sit beside `shared`), else the workplace's
  /// `/work/shared/mustache-spec` (a clone elsewhere, as CI makes). They are not copied
  /// into the repository.
  static let directory: URL? = {
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
    return nil
  }()
}
