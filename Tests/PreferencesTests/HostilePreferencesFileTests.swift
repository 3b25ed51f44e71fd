import Foundation
import Preferences
import Support
import TestSupport
import Testing

/// Inputs found by the fuzzer (`scripts/fuzz`, target `preferences-plist`).
@Suite struct HostilePreferencesFileTests {
  let temporary = TemporaryDirectory("preferences")

  /// A binary plist whose dictionary holds a set of a dictionary: Foundation's
  /// `PropertyListSerialization` dereferenced null while bridging the set.
  static let setOfDictionary = Data(
    hex: "62706c6973743030d70102030405060708090a0b10111254426c6f625e436865636b6c697374496e"
      + "64657859466972737454696d65544c697374544e616d6555526174696f545768656e430001021002"
      + "08a20c0d1001c10e0f516b51766a00630061006600e9002000260020003c00625554462539000000"
      + "0000003341c8597a5000000008171c2b353a3f454a4e50515456595b5d727b000000000000010100"
      + "0000000000001300000000000000000000000000000084")

  @Test func aSetInABinaryPlistIsRefusedNotFatal() {
    #expect(Defaults.decodePersistentDomain(Self.setOfDictionary) == nil)
    // The fuzzer's second find: the same file with another version (`bplist01`).
    var otherVersion = Self.setOfDictionary
    otherVersion[7] = UInt8(ascii: "1")
    #expect(Defaults.decodePersistentDomain(otherVersion) == nil)
  }

  /// A date of NaN or 1e300 seconds (a binary plist can hold any double) trapped the XML
  /// writer when the domain was written back.
  @Test func datesOutsideTheYears1To9999AreWrittenClamped() throws {
    let directory = temporary.makeSubdirectory()
    let defaults = makeDefaults()
    let dates = [Double.nan, .infinity, -.infinity, 1e300, -1e300].map {
      Date(timeIntervalSinceReferenceDate: $0)
    }
    let domain = Dictionary(uniqueKeysWithValues: dates.enumerated().map { ("D\($0)", $1 as Any) })
    try defaults.setPersistentDomain(domain, forName: directory)
    // A second instance reads the file, not the first one's cache.
    let read = try #require(makeDefaults().persistentDomain(forName: directory))
    #expect(read.count == dates.count)
    #expect(read["D3"] as? Date == Date(timeIntervalSince1970: 253_402_300_799))
    #expect(read["D4"] as? Date == Date(timeIntervalSince1970: -62_135_596_800))
  }

  /// The fuzzer's find: a key starting with U+FEFF came back without it (Foundation's reader
  /// takes it for a byte-order mark). Such a character is dropped when the value is set, so
  /// what is read back is what was kept; one inside a key or string stays.
  @Test func aLeadingByteOrderMarkIsDroppedWhenSetNotWhenRead() throws {
    let directory = temporary.makeSubdirectory()
    let defaults = makeDefaults()
    let domain: [String: Any] = [
      "\u{FEFF}Index": 1, "Name\u{FEFF}": "\u{FEFF}\u{1}\u{FEFF}value", "\u{1}\u{FEFF}Ratio": 2,
    ]
    try defaults.setPersistentDomain(domain, forName: directory)
    let kept = try #require(defaults.persistentDomain(forName: directory))
    let read = try #require(makeDefaults().persistentDomain(forName: directory))
    #expect(Set(kept.keys) == ["Index", "Name\u{FEFF}", "Ratio"])
    #expect(Set(read.keys) == Set(kept.keys))
    #expect(read["Name\u{FEFF}"] as? String == "value")
    #expect(kept["Name\u{FEFF}"] as? String == "value")
  }

  @Test func truncatedTrailersAreRefused() {
    let bytes = Self.setOfDictionary
    for length in [8, 20, 39, 40, 100, bytes.count - 1] {
      #expect(Defaults.decodePersistentDomain(bytes.prefix(length)) == nil, "\(length) bytes")
    }
  }

  @Test func ordinaryBinaryAndXMLFilesStillDecode() throws {
    let domain: [String: Any] = ["ChecklistIndex": 2, "List": [1, ["k": "v"]], "Name": "café"]
    for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
      let bytes = try PropertyListSerialization.data(
        fromPropertyList: domain, format: format, options: 0)
      let decoded = try #require(Defaults.decodePersistentDomain(bytes))
      #expect(decoded["ChecklistIndex"] as? Int == 2)
      #expect(decoded["Name"] as? String == "café")
    }
  }
}

extension Data {
  fileprivate init(hex: String) {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      bytes.append(UInt8(hex[index..<next], radix: 16)!)
      index = next
    }
    self.init(bytes)
  }
}
