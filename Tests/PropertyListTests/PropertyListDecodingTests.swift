import Foundation
import PropertyList
import TestSupport
import Testing

/// The store's files decode through `PropertyList.decode` as Foundation's decoder decodes
/// them, from both encodings Foundation writes.
@Suite struct PropertyListDecodingTests {
  struct Item: Codable, Equatable {
    var id: Int
    var text: String
    var checked: Bool
    var dueDate: Date?
    var weight: Double
    var digest: Data
    var kind: Kind
  }

  enum Kind: String, Codable { case plain, urgent }

  struct File: Codable, Equatable {
    var version: Int
    var items: [Item]
    var tags: [String: [Int]]
    var note: String?
  }

  private let sample = File(
    version: 2,
    items: [
      Item(
        id: 1, text: "Fish & <Chips> é🙂", checked: true,
        dueDate: Date(timeIntervalSince1970: 1_700_000_000), weight: 2.5, digest: Data([1, 2]),
        kind: .urgent),
      Item(
        id: 2, text: "", checked: false, dueDate: nil, weight: 3, digest: Data(), kind: .plain),
    ],
    tags: ["a": [1, 2], "b": []],
    note: nil)

  @Test(
    "What Foundation's encoder writes decodes to what it decodes",
    arguments: [
      PropertyListSerialization.PropertyListFormat.xml, .binary,
    ])
  func foundationsFiles(format: PropertyListSerialization.PropertyListFormat) throws {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = format
    let bytes = try encoder.encode(sample)
    let ours = try PropertyList(reading: [UInt8](bytes)).decode(File.self)
    #expect(ours == (try PropertyListDecoder().decode(File.self, from: bytes)))
    #expect(ours == sample)
  }

  @Test("A value of the wrong kind, or a missing key, is a DecodingError")
  func wrongShape() throws {
    let wrongKind = TestPlist.dict([
      "version": .string("2"), "items": .array([]), "tags": .dict([:]),
    ])
    #expect(throws: DecodingError.self) {
      try PropertyList(reading: wrongKind.xml).decode(File.self)
    }
    let missing = TestPlist.dict(["version": .integer(2), "tags": .dict([:])])
    #expect(throws: DecodingError.self) {
      try PropertyList(reading: missing.binary).decode(File.self)
    }
    let tooLarge = TestPlist.dict(["value": .integer(300)])
    struct Small: Decodable { var value: UInt8 }
    #expect(throws: DecodingError.self) {
      try PropertyList(reading: tooLarge.xml).decode(Small.self)
    }
  }

  @Test("Integers past Int64.max are refused, or read as reals when asked")
  func largeIntegers() throws {
    let xml = Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>Big</key><integer>18446744073709551615</integer></dict></plist>
      """.utf8)
    #expect(throws: PropertyListError.self) { try PropertyList(reading: xml) }
    let read = try PropertyList(reading: xml, largeIntegers: .asReals).value(limit: 10)
    #expect(read == .dictionary(["Big": .real(Double(UInt64.max))]))
    let binary = try PropertyListSerialization.data(
      fromPropertyList: ["Big": UInt64.max], format: .binary, options: 0)
    #expect(throws: PropertyListError.self) { try PropertyList(reading: [UInt8](binary)) }
    #expect(
      try PropertyList(reading: [UInt8](binary), largeIntegers: .asReals).value(limit: 100)
        == .dictionary(["Big": .real(Double(UInt64.max))]))
  }

  @Test("UTF-16 XML after its byte-order mark reads as its UTF-8")
  func utf16() throws {
    let value = TestPlist.dict(["name": .string("Grocer\u{E9}s 🙂")])
    let text = String(decoding: value.xml, as: UTF8.self)
    let units = Array(text.utf16)
    let bigEndian: [UInt8] = [0xFE, 0xFF] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    let littleEndian: [UInt8] =
      [0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    for bytes in [bigEndian, littleEndian] {
      #expect(
        try PropertyList(reading: bytes).value(limit: 10)
          == .dictionary(["name": .string("Grocer\u{E9}s 🙂")]))
    }
    #expect(throws: PropertyListError.self) { try PropertyList(reading: [0xFF, 0xFE, 0x00]) }
  }

  @Test("A tree of values stops at its limit: one container named from many places")
  func sharedContainers() throws {
    // Each array names the one before it twice: 2^20 leaves from 21 arrays.
    var file = BinaryFile()
    var known: [TestPlist: Int] = [:]
    var previous = file.add(.string("x"), known: &known)
    for _ in 0..<20 {
      file.objects.append(
        BinaryFile.header(0xA, 2) + file.reference(previous) + file.reference(previous))
      previous = file.objects.count - 1
    }
    let bytes = file.bytes(top: previous)
    let list = try PropertyList(reading: bytes)
    #expect(throws: PropertyListError.self) { try list.value(limit: bytes.count) }
  }
}
