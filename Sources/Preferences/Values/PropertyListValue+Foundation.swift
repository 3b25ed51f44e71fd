import Foundation
import PropertyList

/// What the preferences add to the property-list value: the Foundation values
/// `object(forKey:)` returns, and the check of what a caller stores.
extension PropertyListValue {
  /// The value as Foundation types, what `object(forKey:)` returns.
  var foundationValue: Any {
    switch self {
    case .string(let value): return value
    case .integer(let value): return value
    case .real(let value): return value
    case .bool(let value): return value
    case .date(let value): return value
    case .data(let value): return value
    case .array(let values): return values.map(\.foundationValue)
    case .dictionary(let values): return values.mapValues(\.foundationValue)
    }
  }
}

extension PropertyListValue {
  /// Validates a value a caller wants to store.
  ///
  /// Accepts strings, every integer type that fits in `Int`, `Double`,
  /// `Float` (kept as the `Double` it widens to, as a plist `<real>` reads
  /// back), `Bool`, `Date` (rounded down to whole seconds), `Data`, `URL`
  /// (stored as its absolute string), and arrays and string-keyed
  /// dictionaries of those, nested. Control characters that XML cannot hold
  /// are stripped from strings and keys.
  ///
  /// - Throws: `PreferencesError.notAPropertyListValue` naming `key` and the
  ///   offending type.
  init(validating value: Any, key: String) throws(PreferencesError) {
    switch value {
    case let value as PropertyListValue: self = value
    case let value as String: self = .string(PlistText.sanitized(value))
    case let value as URL: self = .string(PlistText.sanitized(value.absoluteString))
    case let value as Date: self = .date(PropertyListValue.wholeSeconds(value))
    case let value as Data: self = .data(value)
    case let value as [Any]:
      var values: [PropertyListValue] = []
      values.reserveCapacity(value.count)
      for element in value { values.append(try PropertyListValue(validating: element, key: key)) }
      self = .array(values)
    case let value as [String: Any]:
      var values: [String: PropertyListValue] = [:]
      for (name, element) in value {
        values[PlistText.sanitized(name)] = try PropertyListValue(validating: element, key: key)
      }
      self = .dictionary(values)
    case let value as [AnyHashable: Any]:
      var values: [String: PropertyListValue] = [:]
      for (name, element) in value {
        guard let name = name.base as? String else {
          throw .notAPropertyListValue(key: key, typeName: "dictionary key \(type(of: name.base))")
        }
        values[PlistText.sanitized(name)] = try PropertyListValue(validating: element, key: key)
      }
      self = .dictionary(values)
    default:
      if let scalar = PropertyListValue(scalar: value) {
        self = scalar
      } else {
        throw .notAPropertyListValue(key: key, typeName: String(describing: type(of: value)))
      }
    }
  }

  /// Numbers and booleans, whether Swift values or `NSNumber`s.
  private init?(scalar value: Any) {
    if type(of: value) == Bool.self, let value = value as? Bool {
      self = .bool(value)
      return
    }
    switch value {
    case let value as Int: self = .integer(value)
    case let value as Double: self = .real(value)
    case let value as Float: self = .real(Double(value))
    case let value as Int8: self = .integer(Int(value))
    case let value as Int16: self = .integer(Int(value))
    case let value as Int32: self = .integer(Int(value))
    case let value as Int64: self = .integer(Int(value))
    case let value as UInt8: self = .integer(Int(value))
    case let value as UInt16: self = .integer(Int(value))
    case let value as UInt32: self = .integer(Int(value))
    case let value as UInt64:
      guard let value = Int(exactly: value) else { return nil }
      self = .integer(value)
    case let value as UInt:
      guard let value = Int(exactly: value) else { return nil }
      self = .integer(value)
    default: return nil
    }
  }

  static func wholeSeconds(_ date: Date) -> Date {
    let seconds = date.timeIntervalSinceReferenceDate
    guard seconds.isFinite else { return date }
    return Date(timeIntervalSinceReferenceDate: seconds.rounded(.down))
  }
}
