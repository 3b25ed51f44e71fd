import Foundation

/// A property list value built in a test, written by our own small writers so that a
/// test can say exactly what a file holds: UIDs in XML and binary, objects shared by
/// reference, and (through `BinaryFile`) bytes no honest writer produces.
package indirect enum TestPlist: Hashable, Sendable {
  case dictionary([Entry])
  case array([TestPlist])
  case string(String)
  case integer(Int64)
  case real(Double)
  case bool(Bool)
  /// Seconds since 2001-01-01 UTC.
  case date(Double)
  case data([UInt8])
  case uid(UInt64)

  package struct Entry: Hashable, Sendable {
    package var key: String
    package var value: TestPlist

    package init(key: String, value: TestPlist) {
      self.key = key
      self.value = value
    }
  }

  package static func dict(_ entries: KeyValuePairs<String, TestPlist>) -> TestPlist {
    .dictionary(entries.map { Entry(key: $0.key, value: $0.value) })
  }

  // MARK: XML

  /// The value as an XML property list, the way Foundation writes one.
  package var xml: [UInt8] {
    var out = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">

      """
    write(into: &out, depth: 0)
    out += "</plist>\n"
    return Array(out.utf8)
  }

  private func write(into out: inout String, depth: Int) {
    let indent = String(repeating: "\t", count: depth)
    switch self {
    case .dictionary(let entries):
      if entries.isEmpty {
        out += indent + "<dict/>\n"
        return
      }
      out += indent + "<dict>\n"
      for entry in entries {
        out += indent + "\t<key>" + Self.escaped(entry.key) + "</key>\n"
        entry.value.write(into: &out, depth: depth + 1)
      }
      out += indent + "</dict>\n"
    case .array(let members):
      if members.isEmpty {
        out += indent + "<array/>\n"
        return
      }
      out += indent + "<array>\n"
      for member in members { member.write(into: &out, depth: depth + 1) }
      out += indent + "</array>\n"
    case .string(let text): out += indent + "<string>" + Self.escaped(text) + "</string>\n"
    case .integer(let value): out += indent + "<integer>\(value)</integer>\n"
    case .real(let value): out += indent + "<real>\(value)</real>\n"
    case .bool(let value): out += indent + (value ? "<true/>\n" : "<false/>\n")
    case .date(let seconds):
      let formatter = ISO8601DateFormatter()
      formatter.timeZone = TimeZone(identifier: "UTC")
      let text = formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds))
      out += indent + "<date>" + text + "</date>\n"
    case .data(let bytes):
      out += indent + "<data>" + Data(bytes).base64EncodedString() + "</data>\n"
    case .uid(let value):
      TestPlist.dict(["CF$UID": .integer(Int64(value))]).write(into: &out, depth: depth)
    }
  }

  package static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }

  // MARK: binary

  /// The value as a binary property list. Equal values are written once and referred to
  /// from every place they occur (CoreFoundation does so for strings, numbers and dates;
  /// here containers are shared too, which is how a test makes one items array serve
  /// many lists).
  package var binary: [UInt8] {
    var file = BinaryFile()
    var known: [TestPlist: Int] = [:]
    let top = file.add(self, known: &known)
    return file.bytes(top: top)
  }
}

/// The parts of a binary property list, assembled by hand: each object's encoded bytes in
/// order of its number. Tests add objects of their own to make damaged files.
package struct BinaryFile {
  package var objects: [[UInt8]] = []
  /// Bytes of an object reference.
  package var referenceSize = 2

  package init() {}

  /// Adds `value` (and, first, what it holds), once per distinct value.
  package mutating func add(_ value: TestPlist, known: inout [TestPlist: Int]) -> Int {
    if let index = known[value] { return index }
    let index = objects.count
    objects.append([])
    known[value] = index
    objects[index] = encode(value, known: &known)
    return index
  }

  private mutating func encode(_ value: TestPlist, known: inout [TestPlist: Int]) -> [UInt8] {
    switch value {
    case .bool(let flag): return [flag ? 0x09 : 0x08]
    case .integer(let number): return [0x13] + Self.bigEndian(UInt64(bitPattern: number), size: 8)
    case .real(let number): return [0x23] + Self.bigEndian(number.bitPattern, size: 8)
    case .date(let seconds): return [0x33] + Self.bigEndian(seconds.bitPattern, size: 8)
    case .uid(let number): return [0x83] + Self.bigEndian(number, size: 4)
    case .data(let bytes): return Self.header(0x4, bytes.count) + bytes
    case .string(let text):
      if text.utf8.allSatisfy({ $0 < 0x80 }) {
        return Self.header(0x5, text.utf8.count) + Array(text.utf8)
      }
      let units = Array(text.utf16)
      return Self.header(0x6, units.count)
        + units.flatMap { Self.bigEndian(UInt64($0), size: 2) }
    case .array(let members):
      let references = members.map { add($0, known: &known) }
      return Self.header(0xA, members.count) + references.flatMap(reference)
    case .dictionary(let entries):
      let keys = entries.map { add(.string($0.key), known: &known) }
      let values = entries.map { add($0.value, known: &known) }
      return Self.header(0xD, entries.count) + (keys + values).flatMap(reference)
    }
  }

  package func reference(_ index: Int) -> [UInt8] {
    Self.bigEndian(UInt64(index), size: referenceSize)
  }

  /// A marker with a count: in its low bits, or after it as an integer object.
  package static func header(_ kind: UInt8, _ count: Int) -> [UInt8] {
    count < 15
      ? [kind << 4 | UInt8(count)] : [kind << 4 | 0xF, 0x13] + bigEndian(UInt64(count), size: 8)
  }

  package static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
    (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
  }

  /// A file of `body` (the objects' bytes, from offset 8) with the offsets given, as
  /// they are, in a 4-byte offset table: for files whose offsets lie.
  package static func raw(body: [UInt8], offsets: [Int], top: Int = 0, referenceSize: Int)
    -> [UInt8]
  {
    var out = Array("bplist00".utf8) + body
    let table = out.count
    for offset in offsets { out += bigEndian(UInt64(offset), size: 4) }
    out += [0, 0, 0, 0, 0, 0, 4, UInt8(referenceSize)]
    out += bigEndian(UInt64(offsets.count), size: 8)
    out += bigEndian(UInt64(top), size: 8)
    out += bigEndian(UInt64(table), size: 8)
    return out
  }

  /// The file: header, objects, offset table (4-byte offsets), trailer.
  package func bytes(top: Int) -> [UInt8] {
    var out = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
      offsets.append(out.count)
      out += object
    }
    let table = out.count
    for offset in offsets { out += Self.bigEndian(UInt64(offset), size: 4) }
    out += [0, 0, 0, 0, 0, 0, 4, UInt8(referenceSize)]
    out += Self.bigEndian(UInt64(objects.count), size: 8)
    out += Self.bigEndian(UInt64(top), size: 8)
    out += Self.bigEndian(UInt64(table), size: 8)
    return out
  }
}
