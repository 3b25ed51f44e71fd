import Foundation
import Logging
import TestSupport
import Testing

@testable import Preferences

extension TemporaryDirectory {
  /// A new empty directory inside this one (removed with it).
  func makeSubdirectory() -> String {
    let path = appending(UUID().uuidString)
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    return path
  }
}

func quietLogger() -> Logger {
  var logger = Logger(label: "PreferencesTests")
  logger.logLevel = .critical
  return logger
}

func makeDefaults(
  format: PropertyListSerialization.PropertyListFormat = .xml, durable: Bool = false,
  cacheCapacity: Int = 100
) -> Defaults {
  let defaults = Defaults(
    logger: quietLogger(), format: format, durable: durable, cacheCapacity: cacheCapacity)
  defaults.register(defaults: ["ChecklistIndex": -1, "FirstTime": true])
  defaults.declareCookieBacked("ChecklistIndex", as: .integer)
  return defaults
}

extension Defaults {
  /// A request's scope; `cookies` holds the value of each cookie-backed
  /// key's cookie that the request carried.
  func scope(_ directory: String?, cookies: [String: String] = [:]) -> VisitorDefaults {
    visitor(directory: directory, cookieValues: cookies)
  }
}

/// Collects what observers receive.
final class ChangeRecorder: @unchecked Sendable {
  private let lock = NSLock()
  private var received: [PreferencesChange] = []
  var changes: [PreferencesChange] { lock.withLock { received } }
  func observe(_ defaults: Defaults) -> ObserverToken {
    defaults.addObserver { change in self.lock.withLock { self.received.append(change) } }
  }
}

/// Parses a file the way a reader outside this module would.
func parsedFile(_ path: String) throws -> [String: Any] {
  let data = try Data(contentsOf: URL(fileURLWithPath: path))
  let root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
  return try #require(root as? [String: Any])
}

/// The model layer's protocol: VisitorDefaults must conform with no code.
protocol ChecklistPreferences: AnyObject {
  func integer(forKey key: String) -> Int
  func bool(forKey key: String) -> Bool
  func set(_ value: Int, forKey key: String)
  func set(_ value: Bool, forKey key: String)
}
extension VisitorDefaults: ChecklistPreferences {}
