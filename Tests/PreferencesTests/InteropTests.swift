import Foundation
import TestSupport
import Testing

@testable import Preferences

/// Every file we write loads in Python's plistlib and passes `plutil -lint`.
@Suite struct InteropTests {
  let temporary = TemporaryDirectory("preferences")

  private func writeSample(format: PropertyListSerialization.PropertyListFormat) throws -> String {
    let directory = temporary.makeSubdirectory()
    let scope = makeDefaults(format: format).scope(directory)
    let date = Date(timeIntervalSince1970: 1_700_000_000.9)
    try scope.set(
      [
        "string": "<&> \"quoted\" é 🎉 tab\t cr\r lf\n", "int": Int.max, "negative": Int.min,
        "double": 12.34, "tiny": 1e-300, "nan": Double.nan, "inf": -Double.infinity,
        "true": true, "false": false, "date": date, "old": Date(timeIntervalSince1970: -2e9),
        "data": Data((0..<200).map { UInt8($0) }), "empty": [String: Any](), "none": [Any](),
        "nested": [["date": date, "data": Data([1])], [1, [2]]] as [Any],
      ] as [String: Any], forKey: "sample")
    scope.set("a\u{1}b", forKey: "control")
    scope.set(false, forKey: "FirstTime")
    _ = try scope.commit()
    return directory + "/Preferences.plist"
  }

  @Test func pythonPlistlibLoadsEveryWrittenFile() throws {
    for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
      let path = try writeSample(format: format)
      let script = """
        import plistlib, sys, datetime, math
        d = plistlib.load(open(sys.argv[1], 'rb'))
        s = d['sample']
        assert s['int'] == 2**63 - 1 and s['negative'] == -2**63, s
        assert s['double'] == 12.34 and math.isnan(s['nan']) and s['inf'] == -math.inf
        assert s['date'] == datetime.datetime(2023, 11, 14, 22, 13, 20), s['date']
        assert s['data'] == bytes(range(200))
        assert s['string'] == '<&> "quoted" é 🎉 tab\\t cr\\r lf\\n', repr(s['string'])
        assert s['nested'][0]['data'] == b'\\x01' and s['nested'][1] == [1, [2]]
        assert d['control'] == 'ab' and d['FirstTime'] is False
        print('ok')
        """
      let (status, output) = try runCommand("/usr/bin/env", ["python3", "-c", script, path])
      #expect(status == 0, "\(format): \(output)")
      #expect(output == "ok\n")
    }
  }

  /// The Swift toolchain ships plutil; the test is skipped only where it truly is not.
  static let plutil: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    return (path.split(separator: ":").map { "\($0)/plutil" } + ["/opt/swift/usr/bin/plutil"])
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  @Test(.enabled(if: plutil != nil, "plutil is neither on PATH nor in /opt/swift/usr/bin"))
  func plutilLintAcceptsEveryWrittenFile() throws {
    let plutil = try #require(Self.plutil)
    for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
      let path = try writeSample(format: format)
      let (status, output) = try runCommand(plutil, ["-lint", path])
      #expect(status == 0, "\(output)")
      #expect(output.contains("OK"), "\(output)")
    }
  }
}
