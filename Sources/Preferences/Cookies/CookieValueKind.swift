import PropertyList

/// How a cookie-backed key's value is carried in its cookie.
package enum CookieValueKind: Sendable, Equatable {
  /// A decimal integer: an optional `-` and ASCII digits, in `Int`'s range.
  /// Anything else in the cookie reads as absent.
  case integer
}

extension CookieValueKind {
  /// The value a cookie carries, or nil when it is not well-formed (a
  /// tampered cookie is absent, so the registered default applies).
  func decode(_ text: String) -> PropertyListValue? {
    switch self {
    case .integer:
      let bytes = text.utf8
      guard let first = bytes.first else { return nil }
      let digits = first == UInt8(ascii: "-") ? bytes.dropFirst() : bytes[...]
      guard !digits.isEmpty, digits.count <= 20,
        digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
        let value = Int(text)
      else { return nil }
      return .integer(value)
    }
  }

  /// The cookie text for a value, or nil when the value has no such form.
  func encode(_ value: PropertyListValue) -> String? {
    switch self {
    case .integer:
      switch value {
      case .integer(let number): return String(number)
      case .bool(let flag): return flag ? "1" : "0"
      case .real(let number):
        guard number.isFinite, number == number.rounded(), let exact = Int(exactly: number) else {
          return nil
        }
        return String(exact)
      case .string(let text): return decode(text) == nil ? nil : text
      default: return nil
      }
    }
  }
}
