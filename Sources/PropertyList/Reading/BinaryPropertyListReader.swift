/// A strict reader of binary property lists (`bplist00`), the form Foundation and
/// CoreFoundation write by default and Python's `plistlib` writes as `FMT_BINARY`.
///
/// The layout, as CoreFoundation's `CFBinaryPList.c` defines it:
/// - an 8-byte header, `bplist00`;
/// - the objects, one after another, each starting with a marker byte whose high four
///   bits say what it is and whose low four bits hold a size or a count:
///   `0x08`/`0x09` false/true; `0x1n` an integer of 2ⁿ big-endian bytes (1, 2 and 4
///   bytes unsigned, 8 signed, 16 for values past 63 bits); `0x2n` a real of 2ⁿ bytes
///   (4 or 8, IEEE 754); `0x33` a date, an 8-byte real of seconds since 2001-01-01 UTC;
///   `0x4n` data, `0x5n` an ASCII string and `0x6n` a UTF-16 (big-endian) string of n
///   bytes, bytes or code units; `0x8n` a UID of n + 1 bytes (keyed archives only);
///   `0xAn` an array of n object references; `0xDn` a dictionary of n key references
///   followed by n value references. A count of 15 and above is written as `0xF` in the
///   low bits and an integer object right after the marker. `0x00` (null), `0x0F`
///   (fill) and `0xCn` (set) exist in the format but never in a plist that Foundation or
///   `plistlib` writes from plist values; they are refused.
/// - the offset table: for each object, in order of its number, where it starts, as a
///   big-endian integer of the trailer's offset size;
/// - a 32-byte trailer: six unused bytes, the offset size and the reference size (each 1
///   to 8 bytes), then three 8-byte big-endian integers: the number of objects, the
///   number of the top object, and where the offset table starts.
///
/// Object references are object numbers (positions in the offset table), so one object
/// may be named from many places, and nothing in the format stops a container from
/// naming itself. Every figure here is checked before it is used: the trailer against
/// the file's size, each offset against the object area, each count and length against
/// the bytes left before the offset table, each reference against the number of objects.
/// Each object is read once; the bytes the objects cover are summed and must not exceed
/// the object area, so objects that overlap (offsets pointing into one another's bytes,
/// which no writer produces) cannot multiply the work. Then `checkNesting` walks the
/// containers from the top once. Reading is linear in the file's size.
enum BinaryPropertyListReader {
  static let magic = Array("bplist00".utf8)

  /// - Throws: `PropertyListError` naming what is damaged.
  static func read(_ bytes: [UInt8], largeIntegers: PropertyList.LargeIntegers = .refused)
    throws(PropertyListError) -> PropertyList
  {
    guard bytes.starts(with: magic) else {
      throw PropertyListError(
        translatable(
          "This binary property list is of a version that cannot be read (only “bplist00” is)."))
    }
    let layout = try Layout(bytes)
    var reader = ObjectReader(bytes: bytes, layout: layout, largeIntegers: largeIntegers)
    let list = try reader.readAll()
    try list.checkNesting()
    return list
  }

  /// "This property list is damaged: …", with `problem` (a `translatable`
  /// phrase whose tags `values` fill).
  static func damaged(_ problem: String, _ values: [String: String] = [:]) -> PropertyListError {
    PropertyListError(
      translatable("This property list is damaged: {{problem}}."),
      problem: PropertyListError.Phrase(problem, values))
  }

  /// The trailer's figures, each checked against the file's size.
  struct Layout {
    let offsetSize: Int
    let referenceSize: Int
    let count: Int
    let top: Int
    /// Where the offset table starts, which is where the object area ends.
    let table: Int

    init(_ bytes: [UInt8]) throws(PropertyListError) {
      guard bytes.count >= magic.count + 32 else { throw damaged(translatable("it is cut short")) }
      let trailer = bytes.count - 32
      offsetSize = Int(bytes[trailer + 6])
      referenceSize = Int(bytes[trailer + 7])
      guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
        let count = BinaryPropertyListReader.integer(bytes, at: trailer + 8, size: 8),
        let top = BinaryPropertyListReader.integer(bytes, at: trailer + 16, size: 8),
        let table = BinaryPropertyListReader.integer(bytes, at: trailer + 24, size: 8)
      else { throw damaged(translatable("its trailer is not valid")) }
      guard count >= 1, top < count, table >= magic.count, table <= trailer,
        count <= (trailer - table) / offsetSize
      else { throw damaged(translatable("its trailer does not fit the file")) }
      self.count = count
      self.top = top
      self.table = table
    }
  }

  /// An unsigned big-endian integer of `size` (≤ 8) bytes at `offset`, or nil when the
  /// bytes are not all there or the value is above `Int.max / 2` (so that sums and
  /// products of two such values cannot overflow).
  static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> Int? {
    guard offset >= 0, size <= 8, offset <= bytes.count - size else { return nil }
    var value: UInt64 = 0
    for index in offset..<offset + size { value = value << 8 | UInt64(bytes[index]) }
    return value <= UInt64(Int.max / 2) ? Int(value) : nil
  }

  /// Reads every object of the offset table once, in order.
  struct ObjectReader {
    let bytes: [UInt8]
    let layout: Layout
    /// Bytes of the object area covered by the objects read so far.
    var covered = 0
    /// The dictionaries' key and value references, resolved once every object is read
    /// (a key may come after its dictionary).
    var dictionaries: [(index: Int, keys: [Int], values: [Int])] = []

    let largeIntegers: PropertyList.LargeIntegers

    init(bytes: [UInt8], layout: Layout, largeIntegers: PropertyList.LargeIntegers) {
      self.bytes = bytes
      self.layout = layout
      self.largeIntegers = largeIntegers
    }

    mutating func readAll() throws(PropertyListError) -> PropertyList {
      var objects: [PropertyListObject] = []
      objects.reserveCapacity(layout.count)
      for index in 0..<layout.count {
        guard
          let offset = integer(
            bytes, at: layout.table + index * layout.offsetSize, size: layout.offsetSize),
          offset >= magic.count, offset < layout.table
        else {
          throw damaged(
            translatable("object {{object}} starts outside the object area"),
            ["object": String(index)])
        }
        let (object, end) = try read(index, at: offset)
        covered += end - offset
        guard covered <= layout.table - magic.count else {
          throw damaged(translatable("its objects overlap"))
        }
        objects.append(object)
      }
      for dictionary in dictionaries {
        var entries: [String: Int] = [:]
        entries.reserveCapacity(dictionary.keys.count)
        for (key, value) in zip(dictionary.keys, dictionary.values) {
          guard case .string(let name) = objects[key] else {
            throw damaged(
              translatable("a key of dictionary {{object}} is not a string"),
              ["object": String(dictionary.index)])
          }
          guard entries.updateValue(value, forKey: name) == nil else {
            throw damaged(
              translatable("dictionary {{object}} holds the key “{{key}}” twice"),
              ["object": String(dictionary.index), "key": name])
          }
        }
        objects[dictionary.index] = .dictionary(entries)
      }
      return PropertyList(format: .binary, objects: objects, top: layout.top)
    }

    /// The object numbered `index` at `offset`, and where its bytes end.
    mutating func read(_ index: Int, at offset: Int) throws(PropertyListError) -> (
      PropertyListObject, Int
    ) {
      let marker = bytes[offset]
      let low = Int(marker & 0x0F)
      let start = offset + 1
      func outside() -> PropertyListError {
        damaged(
          translatable("object {{object}} runs past the object area"), ["object": String(index)])
      }
      switch marker >> 4 {
      case 0x0 where low == 0x8 || low == 0x9:
        return (.bool(low == 0x9), start)
      case 0x1 where low <= 4:
        let size = 1 << low
        guard fits(size, at: start) else { throw outside() }
        if size == 16, largeIntegers == .asReals, bits(at: start, size: 8) == 0 {
          return (.real(Double(bits(at: start + 8, size: 8))), start + size)
        }
        guard let value = signedInteger(at: start, size: size) else {
          throw damaged(
            translatable("object {{object}} is an integer too large to read"),
            ["object": String(index)])
        }
        return (.integer(value), start + size)
      case 0x2 where low == 2 || low == 3:
        let size = 1 << low
        guard fits(size, at: start) else { throw outside() }
        let pattern = bits(at: start, size: size)
        let value =
          size == 4 ? Double(Float(bitPattern: UInt32(pattern))) : Double(bitPattern: pattern)
        return (.real(value), start + size)
      case 0x3 where low == 3:
        guard fits(8, at: start) else { throw outside() }
        return (.date(Double(bitPattern: bits(at: start, size: 8))), start + 8)
      case 0x8 where low <= 7:
        guard fits(low + 1, at: start) else { throw outside() }
        return (.uid(bits(at: start, size: low + 1)), start + low + 1)
      case 0x4:
        let (first, count) = try counted(index, low, at: start, unit: 1)
        return (.data(Array(bytes[first..<first + count])), first + count)
      case 0x5:
        let (first, count) = try counted(index, low, at: start, unit: 1)
        let slice = bytes[first..<first + count]
        guard slice.allSatisfy({ $0 < 0x80 }) else {
          throw damaged(
            translatable("string {{object}} is marked ASCII but is not"), ["object": String(index)])
        }
        return (.string(String(decoding: slice, as: UTF8.self)), first + count)
      case 0x6:
        let (first, count) = try counted(index, low, at: start, unit: 2)
        var units: [UInt16] = []
        units.reserveCapacity(count)
        for unit in 0..<count {
          units.append(UInt16(bytes[first + 2 * unit]) << 8 | UInt16(bytes[first + 2 * unit + 1]))
        }
        guard let string = String(validating: units, as: UTF16.self) else {
          throw damaged(
            translatable("string {{object}} is not valid UTF-16"), ["object": String(index)])
        }
        return (.string(string), first + 2 * count)
      case 0xA:
        let (first, count) = try counted(index, low, at: start, unit: layout.referenceSize)
        let members = try references(index, count, at: first)
        return (.array(members), first + count * layout.referenceSize)
      case 0xD:
        let (first, count) = try counted(index, low, at: start, unit: 2 * layout.referenceSize)
        let keys = try references(index, count, at: first)
        let values = try references(index, count, at: first + count * layout.referenceSize)
        dictionaries.append((index, keys, values))
        return (.dictionary([:]), first + 2 * count * layout.referenceSize)
      default:
        throw damaged(
          translatable(
            "object {{object}} has a marker ({{marker}}) that a property list of values does not use"
          ), ["object": String(index), "marker": "0x" + String(marker, radix: 16)])
      }
    }

    /// Whether `length` bytes from `start` end at or before the offset table.
    func fits(_ length: Int, at start: Int) -> Bool {
      start <= layout.table && length <= layout.table - start
    }

    /// The first `size` (≤ 8) bytes at `start` as a big-endian bit pattern.
    func bits(at start: Int, size: Int) -> UInt64 {
      var value: UInt64 = 0
      for index in start..<start + size { value = value << 8 | UInt64(bytes[index]) }
      return value
    }

    /// An integer object's value: 1, 2 and 4 bytes are unsigned, 8 bytes signed; 16 bytes
    /// (what CoreFoundation writes for values past `Int64.max`) are read when they fit in
    /// 64 signed bits, that is when the upper half is the sign extension of the lower.
    func signedInteger(at start: Int, size: Int) -> Int64? {
      guard size == 16 else {
        let pattern = bits(at: start, size: size)
        return size == 8 ? Int64(bitPattern: pattern) : Int64(pattern)
      }
      let upper = bits(at: start, size: 8)
      let lower = Int64(bitPattern: bits(at: start + 8, size: 8))
      guard upper == (lower < 0 ? UInt64.max : 0) else { return nil }
      return lower
    }

    /// Where a data, string or container object's contents start and how many units they
    /// hold, when `count × unit` bytes of them fit before the offset table; the count is
    /// in the marker's low bits, or, when those are 15, in the integer object after it.
    func counted(_ index: Int, _ low: Int, at start: Int, unit: Int) throws(PropertyListError) -> (
      start: Int, count: Int
    ) {
      var first = start
      var count = low
      if low == 0xF {
        guard start < layout.table, bytes[start] >> 4 == 0x1, bytes[start] & 0x0F <= 3 else {
          throw damaged(
            translatable("object {{object}} has no valid length"), ["object": String(index)])
        }
        let size = 1 << Int(bytes[start] & 0x0F)
        guard fits(size, at: start + 1), let value = integer(bytes, at: start + 1, size: size)
        else {
          throw damaged(
            translatable("object {{object}} has no valid length"), ["object": String(index)])
        }
        count = value
        first = start + 1 + size
      }
      guard fits(0, at: first), count <= (layout.table - first) / unit else {
        throw damaged(
          translatable("object {{object}} runs past the object area"), ["object": String(index)])
      }
      return (first, count)
    }

    /// `count` object references at `start`, each checked to name an object.
    func references(_ index: Int, _ count: Int, at start: Int) throws(PropertyListError) -> [Int] {
      var result: [Int] = []
      result.reserveCapacity(count)
      let size = layout.referenceSize
      for entry in 0..<count {
        let reference = Int(truncatingIfNeeded: bits(at: start + entry * size, size: size))
        guard reference >= 0, reference < layout.count else {
          throw damaged(
            translatable(
              "container {{object}} refers to object {{reference}}, which the file does not hold"),
            ["object": String(index), "reference": String(reference)])
        }
        result.append(reference)
      }
      return result
    }
  }
}
