import Foundation

/// Where an executable product of this package (a child process of a test,
/// e.g. `store-child`) was built: beside the running test bundle, which is
/// where `swift build --build-tests` puts it, or under `.build/debug`.
public enum BuiltTool {
  /// The package's root directory (for `Templates/`, `Public/`, fixtures).
  public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

  /// The path of the executable `name`.
  ///
  /// - Throws: `Missing` naming every place looked at.
  public static func path(_ name: String) throws -> String {
    var candidates: [String] = []
    if let executable = Bundle.main.executableURL {
      candidates.append(executable.deletingLastPathComponent().path + "/" + name)
    }
    for bundle in Bundle.allBundles {
      candidates.append(bundle.bundleURL.deletingLastPathComponent().path + "/" + name)
    }
    candidates.append(packageRoot + "/.build/debug/" + name)
    guard let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
      throw Missing(name: name, candidates: candidates)
    }
    return found
  }

  /// The tool was not built.
  public struct Missing: Error, CustomStringConvertible {
    public var name: String
    public var candidates: [String]
    public var description: String {
      "\(name) not found (looked in \(candidates)); build it with `swift build --build-tests`"
    }
  }
}
