import Foundation

/// A property-list value as this module holds it: a closed set of cases, so
/// that equality ("an equal value changes nothing") and the typed getters'
/// conversions do not depend on Foundation's bridging of `Any`.
enum PlistValue: Equatable, Sendable {
  case string(String)
  case integer(Int)
  case double(Double)
  case bool(Bool)
  /// Always whole seconds: XML plists and Python's plistlib keep no fraction.
  case date(Date)
  case data(Data)
  case array([PlistValue])
  case dictionary([String: PlistValue])

  /// The value as Foundation types, what `object(forKey:)` returns.
  var foundationValue: Any {
    switch self {
    case .string(let value): return value
    case .integer(let value): return value
    case .double(let value): return value
    case .bool(let value): return value
    case .date(let value): return value
    case .data(let value): return value
    case .array(let values): return values.map(\.foundationValue)
    case .dictionary(let values): return values.mapValues(\.foundationValue)
    }
  }
}

extension PlistValue {
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
    case let value as PlistValue: self = value
    case let value as String: self = .string(PlistText.sanitized(value))
    case let value as URL: self = .string(PlistText.sanitized(value.absoluteString))
    case let value as Date: self = .date(PlistValue.wholeSeconds(value))
    case let value as Data: self = .data(value)
    case let value as [Any]:
      var values: [PlistValue] = []
      values.reserveCapacity(value.count)
      for element in value { values.append(try PlistValue(validating: element, key: key)) }
      self = .array(values)
    case let value as [String: Any]:
      var values: [String: PlistValue] = [:]
      for (name, element) in value {
        values[PlistText.sanitized(name)] = try PlistValue(validating: element, key: key)
      }
      self = .dictionary(values)
    case let value as [AnyHashable: Any]:
      var values: [String: PlistValue] = [:]
      for (name, element) in value {
        guard let name = name.base as? String else {
          throw .notAPropertyListValue(key: key, typeName: "dictionary key \(type(of: name.base))")
        }
        values[PlistText.sanitized(name)] = try PlistValue(validating: element, key: key)
      }
      self = .dictionary(values)
    default:
      if let scalar = PlistValue(scalar: value) {
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
    case let value as Double: self = .double(value)
    case let value as Float: self = .double(Double(value))
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

  /// Converts what `PropertyListSerialization` parsed; nil for anything a
  /// preferences file may not hold (so the file counts as unreadable).
  init?(parsed value: Any) {
    if type(of: value) == Bool.self, let value = value as? Bool {
      self = .bool(value)
      return
    }
    switch value {
    case let value as String: self = .string(value)
    case let value as Date: self = .date(value)
    case let value as Data: self = .data(value)
    case let value as NSNumber:
      // One character says which: d/f real, c/B boolean, Q/L/I unsigned.
      switch UInt8(bitPattern: value.objCType.pointee) {
      case UInt8(ascii: "d"), UInt8(ascii: "f"): self = .double(value.doubleValue)
      case UInt8(ascii: "c"), UInt8(ascii: "B"): self = .bool(value.boolValue)
      case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"):
        // Plists may hold integers up to 2^64 − 1 (Python writes them);
        // above Int.max they read as the nearest Double rather than make a
        // valid file count as unreadable.
        let unsigned = value.uint64Value
        self = Int(exactly: unsigned).map(PlistValue.integer) ?? .double(Double(unsigned))
      default: self = .integer(value.intValue)
      }
    case let value as [Any]:
      var values: [PlistValue] = []
      values.reserveCapacity(value.count)
      for element in value {
        guard let element = PlistValue(parsed: element) else { return nil }
        values.append(element)
      }
      self = .array(values)
    case let value as [AnyHashable: Any]:
      guard let values = PlistValue.parsedDictionary(value) else { return nil }
      self = .dictionary(values)
    default:
      if let scalar = PlistValue(scalar: value) { self = scalar } else { return nil }
    }
  }

  static func parsedDictionary(_ value: [AnyHashable: Any]) -> [String: PlistValue]? {
    var values: [String: PlistValue] = [:]
    values.reserveCapacity(value.count)
    for (name, element) in value {
      guard let name = name.base as? String, let element = PlistValue(parsed: element) else {
        return nil
      }
      values[name] = element
    }
    return values
  }

  static func wholeSeconds(_ date: Date) -> Date {
    let seconds = date.timeIntervalSinceReferenceDate
    guard seconds.isFinite else { return date }
    return Date(timeIntervalSinceReferenceDate: seconds.rounded(.down))
  }
}
