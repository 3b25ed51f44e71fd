import Foundation

extension PropertyList {
  /// The value of type `Value` that the top object holds, as `PropertyListDecoder` would
  /// decode it from the same file: the store's files read without Foundation's parsers
  /// (see `PropertyList` for why).
  ///
  /// A dictionary's keys are the coding keys; a date is a `Date`, data `Data`; an integer
  /// is read as a `Double` too, and a real as an integer when it is one exactly; a string
  /// `$null` is nil, as `NSKeyedArchiver`'s convention Foundation's decoder keeps.
  ///
  /// - Throws: `DecodingError` when the objects do not have the shape `Value` decodes, or
  ///   what `Value`'s own `init(from:)` throws.
  package func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
    try ObjectDecoder(list: self, index: top, codingPath: []).decode(type)
  }
}

/// Decodes the object at `index` and, through its containers, the objects it holds.
struct ObjectDecoder: Decoder, SingleValueDecodingContainer {
  let list: PropertyList
  let index: Int
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .dictionary(let entries) = list[index] else {
      throw mismatch([String: Any].self)
    }
    return KeyedDecodingContainer(
      KeyedObjectContainer<Key>(list: list, entries: entries, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let members) = list[index] else { throw mismatch([Any].self) }
    return UnkeyedObjectContainer(list: list, members: members, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  // MARK: one value

  func decodeNil() -> Bool {
    if case .string("$null") = list[index] { return true }
    return false
  }

  func decode(_ type: Bool.Type) throws -> Bool {
    guard case .bool(let flag) = list[index] else { throw mismatch(type) }
    return flag
  }

  func decode(_ type: String.Type) throws -> String {
    guard case .string(let text) = list[index] else { throw mismatch(type) }
    return text
  }

  func decode(_ type: Double.Type) throws -> Double {
    switch list[index] {
    case .real(let number): return number
    case .integer(let number): return Double(number)
    default: throw mismatch(type)
    }
  }

  func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

  func decode(_ type: Int.Type) throws -> Int { try integer(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    if type == Date.self {
      guard case .date(let seconds) = list[index] else { throw mismatch(type) }
      return Date(timeIntervalSinceReferenceDate: seconds) as! T
    }
    if type == Data.self {
      guard case .data(let bytes) = list[index] else { throw mismatch(type) }
      return Data(bytes) as! T
    }
    return try T(from: self)
  }

  private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
    let value: I?
    switch list[index] {
    case .integer(let number): value = I(exactly: number)
    case .real(let number): value = I(exactly: number)
    default: throw mismatch(type)
    }
    guard let value else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: codingPath, debugDescription: "the number does not fit in \(type)"))
    }
    return value
  }

  private func mismatch(_ type: Any.Type) -> DecodingError {
    DecodingError.typeMismatch(
      type,
      DecodingError.Context(
        codingPath: codingPath, debugDescription: "found \(list[index].kind) instead"))
  }
}

/// A dictionary's entries, by coding key.
struct KeyedObjectContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let list: PropertyList
  let entries: [String: Int]
  let codingPath: [any CodingKey]

  var allKeys: [Key] { entries.keys.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

  private func decoder(for key: Key) throws -> ObjectDecoder {
    guard let index = entries[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: codingPath, debugDescription: "no value for “\(key.stringValue)”"))
    }
    return ObjectDecoder(list: list, index: index, codingPath: codingPath + [key])
  }

  func decodeNil(forKey key: Key) throws -> Bool { try decoder(for: key).decodeNil() }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decoder(for: key).decode(type)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
    throws -> KeyedDecodingContainer<NestedKey>
  {
    try decoder(for: key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder(for: key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    throw DecodingError.dataCorrupted(
      DecodingError.Context(codingPath: codingPath, debugDescription: "no super decoder"))
  }

  func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(for: key) }
}

/// An array's members, in order.
struct UnkeyedObjectContainer: UnkeyedDecodingContainer {
  let list: PropertyList
  let members: [Int]
  let codingPath: [any CodingKey]
  private(set) var currentIndex = 0

  init(list: PropertyList, members: [Int], codingPath: [any CodingKey]) {
    self.list = list
    self.members = members
    self.codingPath = codingPath
  }

  var count: Int? { members.count }
  var isAtEnd: Bool { currentIndex >= members.count }

  private mutating func next() throws -> ObjectDecoder {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        Any.self,
        DecodingError.Context(codingPath: codingPath, debugDescription: "the array has ended"))
    }
    let decoder = ObjectDecoder(
      list: list, index: members[currentIndex],
      codingPath: codingPath + [MemberKey(intValue: currentIndex)])
    currentIndex += 1
    return decoder
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd else { return false }
    let isNil = ObjectDecoder(list: list, index: members[currentIndex], codingPath: codingPath)
      .decodeNil()
    if isNil { currentIndex += 1 }
    return isNil
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try next().container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try next().unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder { try next() }
}

/// A member's position in an array, for a coding path.
struct MemberKey: CodingKey {
  let intValue: Int?
  var stringValue: String { "Index \(intValue ?? 0)" }

  init(intValue: Int) { self.intValue = intValue }
  init?(stringValue: String) { nil }
}
