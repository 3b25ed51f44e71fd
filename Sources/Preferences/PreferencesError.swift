/// Why a preference could not be set or stored.
package enum PreferencesError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The value (or something nested in it) is not a property-list type.
  case notAPropertyListValue(key: String, typeName: String)
  /// A cookie-backed key was given a value its cookie cannot carry.
  case notACookieValue(key: String, typeName: String)
  /// A persistent change was committed for a visitor who has no directory.
  case noDirectory
  /// The preferences file could not be read or written; the message names
  /// the system call and path.
  case io(String)
  /// The store that keeps the file (a database) cannot be reached now;
  /// nothing was written, and a retry may succeed.
  case unavailable(String)

  package var description: String {
    switch self {
    case .notAPropertyListValue(let key, let typeName):
      return "\(key): a \(typeName) is not a property-list value"
    case .notACookieValue(let key, let typeName):
      return "\(key): a \(typeName) cannot be stored in its cookie"
    case .noDirectory: return "the visitor has no directory for persistent preferences"
    case .io(let message), .unavailable(let message): return message
    }
  }
}
