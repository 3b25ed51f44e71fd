/// A string-keyed object of a context, built for the renderer's look-ups.
///
/// A page looks up about ten names per list row, most of them missing from the row and found
/// one level up, so look-up must cost nanoseconds: fields are kept in an array with a
/// precomputed hash of each key, and a name's hash is computed once when the template is
/// parsed. A scan compares integers and only compares strings on a hash match. Objects with
/// many fields also get a dictionary index.
///
/// Most look-ups miss (a row asked for the list's id, found a level up), so each object also
/// keeps `mask`, one bit per key (`KeyHash.bit`): a name whose bit is clear is not there, and
/// the scan is skipped. A 20-item page's look-ups cost ~132 instructions each before it.
package struct TemplateObject: Sendable, Equatable {
  struct Field: Sendable {
    let hash: Int
    let key: String
    var value: TemplateValue {
      didSet { plain = Self.isPlain(value) }
    }
    /// The value is a string that HTML escaping leaves as it is: checked once here rather
    /// than at every `{{tag}}` that prints it (a row prints its id four times).
    private(set) var plain: Bool

    init(hash: Int, key: String, value: TemplateValue) {
      self.hash = hash
      self.key = key
      self.value = value
      self.plain = Self.isPlain(value)
    }

    /// Strings up to this many bytes are checked; longer ones (a pre-rendered screen) are
    /// scanned when printed escaped, if ever.
    static let plainCheckLimit = 1024

    static func isPlain(_ value: TemplateValue) -> Bool {
      guard case .string(var text) = value, text.utf8.count <= plainCheckLimit else {
        return false
      }
      return text.withUTF8 { !HTMLEscaping.needsEscaping($0) }
    }
  }

  /// Above this many fields a dictionary index replaces the scan.
  static let indexThreshold = 24

  var fields: [Field]
  var index: [String: Int]?
  /// The union of the fields' `KeyHash.bit`s.
  var mask: UInt64 = 0

  /// An object with these fields.
  package init(_ fields: [String: TemplateValue]) {
    self.init(pairs: fields.map { ($0.key, $0.value) })
  }

  /// An object with these fields, in this order; a repeated key keeps its last value.
  package init<S: Sequence>(pairs: S) where S.Element == (String, TemplateValue) {
    fields = []
    fields.reserveCapacity(pairs.underestimatedCount)
    var seen: [String: Int]? = nil
    for (key, value) in pairs {
      let hash = KeyHash.of(key)
      if let existing = Self.position(of: key, hash: hash, in: fields, index: seen) {
        fields[existing].value = value
        continue
      }
      fields.append(Field(hash: hash, key: key, value: value))
      mask |= KeyHash.bit(hash)
      if fields.count == Self.indexThreshold {
        seen = Dictionary(uniqueKeysWithValues: fields.enumerated().map { ($1.key, $0) })
      } else if seen != nil {
        seen![key] = fields.count - 1
      }
    }
    index = seen
  }

  /// The number of fields.
  package var count: Int { fields.count }

  /// The keys, in insertion order.
  package var keys: [String] { fields.map(\.key) }

  /// The value of `key`, or nil when the object has no such field.
  package subscript(key: String) -> TemplateValue? {
    get {
      guard let position = Self.position(of: key, hash: KeyHash.of(key), in: fields, index: index)
      else { return nil }
      return fields[position].value
    }
    set {
      let hash = KeyHash.of(key)
      if let position = Self.position(of: key, hash: hash, in: fields, index: index) {
        if let newValue {
          fields[position].value = newValue
        } else {
          var pairs = fields.map { ($0.key, $0.value) }
          pairs.remove(at: position)
          self = TemplateObject(pairs: pairs)
        }
      } else if let newValue {
        fields.append(Field(hash: hash, key: key, value: newValue))
        mask |= KeyHash.bit(hash)
        if index != nil {
          index![key] = fields.count - 1
        } else if fields.count >= Self.indexThreshold {
          index = Dictionary(uniqueKeysWithValues: fields.enumerated().map { ($1.key, $0) })
        }
      }
    }
  }

  /// The renderer's look-up, with the key's hash computed at parse time: the value, and
  /// whether it is a string that needs no escaping.
  @inline(__always)
  func field(hash: Int, name: String) -> (value: TemplateValue, plain: Bool)? {
    guard mask & KeyHash.bit(hash) != 0 else { return nil }
    if let index {
      guard let position = index[name] else { return nil }
      return (fields[position].value, fields[position].plain)
    }
    return fields.withUnsafeBufferPointer { fields in
      for position in fields.indices where fields[position].hash == hash {
        if fields[position].key == name { return (fields[position].value, fields[position].plain) }
      }
      return nil
    }
  }

  static func position(of key: String, hash: Int, in fields: [Field], index: [String: Int]?)
    -> Int?
  {
    if let index { return index[key] }
    for position in fields.indices
    where fields[position].hash == hash && fields[position].key == key {
      return position
    }
    return nil
  }

  /// Equal when both have the same keys with equal values, in any order.
  package static func == (lhs: TemplateObject, rhs: TemplateObject) -> Bool {
    guard lhs.fields.count == rhs.fields.count else { return false }
    for field in lhs.fields {
      guard let other = rhs[field.key], other == field.value else { return false }
    }
    return true
  }
}

/// A field's name with its hash computed once, for the objects a page builds per request:
/// a screen keeps its keys as `static let`s, and `TemplateObject(fields:)` then neither hashes
/// a name nor builds a dictionary (a 20-item page's context took ~105,000 instructions built
/// from dictionaries, ~5,000 a row; `bench-web --profile N computed`).
package struct TemplateKey: Sendable {
  package let name: String
  let hash: Int

  package init(_ name: String) {
    self.name = name
    hash = KeyHash.of(name)
  }
}

extension TemplateObject {
  /// An object with these fields, in this order. The names must differ (checked in debug
  /// builds only): unlike `init(pairs:)`, nothing is looked up while it is built.
  package init(fields pairs: [(TemplateKey, TemplateValue)]) {
    assert(Set(pairs.map(\.0.name)).count == pairs.count, "repeated keys")
    guard pairs.count < Self.indexThreshold else {
      self = TemplateObject(pairs: pairs.map { ($0.name, $1) })
      return
    }
    var fields: [Field] = []
    fields.reserveCapacity(pairs.count)
    var mask: UInt64 = 0
    for (key, value) in pairs {
      fields.append(Field(hash: key.hash, key: key.name, value: value))
      mask |= KeyHash.bit(key.hash)
    }
    self.fields = fields
    self.mask = mask
    index = nil
  }
}

extension TemplateObject {
  /// An empty object with room for `capacity` fields, filled by `append(_:_:)`: a page's row
  /// is then one allocation, where `init(fields:)` also makes (and destroys) an array of pairs
  /// (~1,600 instructions a row of a 20-item page, `bench-web --profile N computed`).
  package init(capacity: Int) {
    fields = []
    fields.reserveCapacity(capacity)
    index = nil
  }

  /// Adds a field; the object must not have one of that name yet (checked in debug builds
  /// only).
  package mutating func append(_ key: TemplateKey, _ value: TemplateValue) {
    assert(self[key.name] == nil, "repeated key")
    guard index == nil, fields.count + 1 < Self.indexThreshold else {
      self[key.name] = value
      return
    }
    fields.append(Field(hash: key.hash, key: key.name, value: value))
    mask |= KeyHash.bit(key.hash)
  }
}

/// A name looked up in the context, with its hash computed once.
struct Key: Sendable, Hashable {
  let hash: Int
  let name: String

  init(_ name: String) {
    self.name = name
    self.hash = KeyHash.of(name)
  }
}

/// FNV-1a over the UTF-8 bytes: cheap for the short keys of a context, and the same on every run
/// (unlike `Hasher`, which is seeded per process; that does not matter here, but it is slower).
enum KeyHash {
  static func of(_ key: String) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in key.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    return Int(truncatingIfNeeded: hash)
  }

  /// The bit of `TemplateObject.mask` that stands for a key of this hash: its top six bits
  /// (FNV-1a's low bits depend only on the low bits of each byte).
  @inline(__always)
  static func bit(_ hash: Int) -> UInt64 {
    1 &<< (UInt64(UInt(bitPattern: hash)) &>> 58)
  }
}
