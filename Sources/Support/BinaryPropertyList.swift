import Foundation

/// A look at a binary property list's objects before Foundation parses it.
///
/// Foundation on Linux stops the process, instead of throwing, on some malformed binary
/// property lists:
/// - `PropertyListSerialization` on a set holding a dictionary (a null dereference while
///   bridging `NSSet`; the fuzzer found it in a 183-byte `Preferences.plist`);
/// - `PropertyListDecoder` on an array or dictionary whose count times the reference size
///   is above `Int.max` (its integer conversion traps; the fuzzer found it in a
///   `Checklists.plist`), and on strings whose length runs past the object table.
///
/// So every object's marker, length and references are checked here first. Neither our
/// writers nor Python's `plistlib` write sets, so a file with one is corrupt as well.
package enum BinaryPropertyList {
  /// True when `data` is a binary property list (`bplist…`, whatever its version bytes: CF
  /// reads `bplist01` too) that is not well formed: its trailer, offset table or an object
  /// is out of bounds, an object has an unknown marker, a container refers to an object
  /// that does not exist, or it holds a set or an ordered set. Any other data (XML, not a
  /// plist) is false.
  ///
  /// - Parameter data: the file's bytes.
  /// - Returns: whether the bytes must not reach Foundation's parsers.
  package static func isUnsafeToParse(_ data: Data) -> Bool {
    let bytes = [UInt8](data)
    guard bytes.starts(with: Array("bplist".utf8)) else { return false }
    guard let layout = Layout(bytes) else { return true }
    for index in 0..<layout.objects {
      guard
        let offset = bigEndian(
          bytes, at: layout.table + index * layout.offsetSize, size: layout.offsetSize),
        offset >= 8, offset < layout.table, layout.isWellFormedObject(at: offset)
      else { return true }
    }
    return false
  }

  /// The trailer's figures, each checked against the file's size.
  private struct Layout {
    let bytes: [UInt8]
    let offsetSize: Int
    let referenceSize: Int
    let objects: Int
    /// Where the offset table starts, which is where the objects end.
    let table: Int

    /// The last 32 bytes: 6 unused, offset size, reference size, then three big-endian
    /// 64-bit integers (object count, top object, offset table's position).
    init?(_ bytes: [UInt8]) {
      guard bytes.count >= 8 + 32 else { return nil }
      let trailer = bytes.count - 32
      let offsetSize = Int(bytes[trailer + 6])
      let referenceSize = Int(bytes[trailer + 7])
      guard let objects = bigEndian(bytes, at: trailer + 8, size: 8),
        let top = bigEndian(bytes, at: trailer + 16, size: 8),
        let table = bigEndian(bytes, at: trailer + 24, size: 8),
        (1...8).contains(offsetSize), (1...8).contains(referenceSize),
        objects >= 1, top < objects, table >= 8, table <= trailer,
        objects <= (trailer - table) / offsetSize
      else { return nil }
      self.bytes = bytes
      self.offsetSize = offsetSize
      self.referenceSize = referenceSize
      self.objects = objects
      self.table = table
    }

    /// Whether the object at `offset` has a known marker and fits before the offset table,
    /// and, for an array or a dictionary, whether each reference names an object.
    func isWellFormedObject(at offset: Int) -> Bool {
      let marker = bytes[offset]
      let low = Int(marker & 0x0F)
      let start = offset + 1
      switch marker >> 4 {
      case 0x0: return [0x0, 0x8, 0x9, 0xF].contains(low)  // null, false, true, fill
      case 0x1: return low <= 4 && fits(1 << low, at: start)  // integer
      case 0x2: return (low == 2 || low == 3) && fits(1 << low, at: start)  // real
      case 0x3: return low == 3 && fits(8, at: start)  // date
      case 0x8: return fits(low + 1, at: start)  // UID
      case 0x4, 0x5: return counted(low, at: start, unit: 1) != nil  // data, ASCII
      case 0x6: return counted(low, at: start, unit: 2) != nil  // UTF-16
      case 0xA: return references(low, at: start, perEntry: 1)  // array
      case 0xD: return references(low, at: start, perEntry: 2)  // dictionary
      default: return false  // sets, ordered sets and unassigned markers
      }
    }

    private func fits(_ length: Int, at start: Int) -> Bool {
      start <= table && length <= table - start
    }

    /// Where the contents of an object with `low` as its marker's low nibble start, when
    /// `count × unit` bytes of them fit; the count is in the nibble, or for 15 and above
    /// in the integer object (1, 2, 4 or 8 bytes) that follows the marker.
    private func counted(_ low: Int, at start: Int, unit: Int) -> (start: Int, count: Int)? {
      var start = start
      var count = low
      if low == 0xF {
        guard start < table, bytes[start] >> 4 == 0x1, bytes[start] & 0x0F <= 3 else {
          return nil
        }
        let size = 1 << Int(bytes[start] & 0x0F)
        guard fits(size, at: start + 1),
          let value = bigEndian(bytes, at: start + 1, size: size)
        else { return nil }
        count = value
        start += 1 + size
      }
      guard fits(0, at: start), count <= (table - start) / unit else { return nil }
      return (start, count)
    }

    /// Whether a container's `perEntry × count` references fit and each names an object.
    private func references(_ low: Int, at start: Int, perEntry: Int) -> Bool {
      guard let (first, count) = counted(low, at: start, unit: perEntry * referenceSize) else {
        return false
      }
      for entry in 0..<count * perEntry {
        guard
          let reference = bigEndian(
            bytes, at: first + entry * referenceSize, size: referenceSize),
          reference < objects
        else { return false }
      }
      return true
    }
  }

  /// A big-endian unsigned integer of `size` bytes at `offset`, or nil when it is out of
  /// bounds or larger than `Int.max / 2` (so sums and products of such values stay in range).
  private static func bigEndian(_ bytes: [UInt8], at offset: Int, size: Int) -> Int? {
    guard offset >= 0, size <= 8, offset <= bytes.count - size else { return nil }
    var value: UInt64 = 0
    for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
    return value <= UInt64(Int.max / 2) ? Int(value) : nil
  }
}
