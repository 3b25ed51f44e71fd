import Foundation
import PropertyList
import TestSupport
import Testing

/// The writer must write what Foundation writes, so that a file changes in nothing but
/// the time it took, and what it writes must read back equal.
@Suite struct XMLPropertyListWriterTests {
  /// Foundation's XML of `value` (its dictionaries' keys sorted, as it writes them).
  private func foundation(_ value: PropertyListValue) throws -> [UInt8] {
    Array(
      try PropertyListSerialization.data(
        fromPropertyList: foundationObject(value), format: .xml, options: 0))
  }

  private func foundationObject(_ value: PropertyListValue) -> Any {
    switch value {
    case .string(let text): text
    case .integer(let number): number
    case .real(let number): number
    case .bool(let flag): flag
    case .date(let date): date
    case .data(let bytes): bytes
    case .array(let values): values.map(foundationObject)
    case .dictionary(let values): values.mapValues(foundationObject)
    }
  }

  /// A random tree of the values whose spelling Foundation and we share exactly (reals
  /// and data aside: Foundation breaks base64 into lines and spells some reals its way).
  private func randomValue(depth: Int, using generator: inout SeededGenerator)
    -> PropertyListValue
  {
    let alphabet = Array("ab <>&\"'é🙂xyz0123\t")
    func text() -> String {
      String(
        (0..<Int.random(in: 0...8, using: &generator)).map { _ in
          alphabet.randomElement(using: &generator)!
        })
    }
    switch Int.random(in: 0..<(depth < 3 ? 7 : 4), using: &generator) {
    case 0: return .string(text())
    case 1: return .integer(Int.random(in: Int.min...Int.max, using: &generator))
    case 2: return .bool(Bool.random(using: &generator))
    case 3:
      let seconds = Double(Int.random(in: 0...253_402_300_799, using: &generator))
      return .date(Date(timeIntervalSince1970: seconds))
    case 4, 5:
      return .array(
        (0..<Int.random(in: 0...4, using: &generator)).map { _ in
          randomValue(depth: depth + 1, using: &generator)
        })
    default:
      var entries: [String: PropertyListValue] = [:]
      for _ in 0..<Int.random(in: 0...4, using: &generator) {
        entries[text()] = randomValue(depth: depth + 1, using: &generator)
      }
      return .dictionary(entries)
    }
  }

  @Test("Random trees, keys sorted, are Foundation's bytes and read back equal", arguments: 0..<4)
  func randomTrees(seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<50 {
      let value = PropertyListValue.dictionary([
        "root": randomValue(depth: 0, using: &generator)
      ])
      let written = XMLPropertyListWriter.document(value, sortedKeys: true)
      #expect(
        String(decoding: written, as: UTF8.self)
          == String(decoding: try foundation(value), as: UTF8.self))
      let read = try PropertyList(reading: written).value(limit: written.count)
      #expect(read == value)
    }
  }

  @Test("Reals, data and a carriage return read back equal")
  func realsDataAndCarriageReturn() throws {
    let value = PropertyListValue.dictionary([
      "reals": .array([.real(2.5), .real(-0.1), .real(1e300), .real(.infinity), .real(-.infinity)]),
      "data": .data(Data([0, 1, 2, 0xFF])),
      "text": .string("a\r\nb"),
    ])
    let written = XMLPropertyListWriter.document(value)
    #expect(try PropertyList(reading: written).value(limit: written.count) == value)
    #expect(String(decoding: written, as: UTF8.self).contains("a&#13;\nb"))
  }
}
