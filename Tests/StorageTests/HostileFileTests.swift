import ChecklistsModel
import Foundation
import Logging
import Storage
import Support
import TestSupport
import Testing

/// Inputs found by the fuzzer (`scripts/fuzz`, target `checklists-plist`).
@Suite struct HostileFileTests {
  private func xmlFile(version: [UInt8]) -> Data {
    Data(
      Array(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict><key>version</key><integer>"
          .utf8) + version + Array("</integer></dict></plist>".utf8))
  }

  /// Twenty 0xFF bytes in `<integer>` stopped the process inside Foundation's decoder;
  /// the strict reader refuses such a file as corrupt (and so the store sets it aside).
  @Test func bytesThatAreNotUTF8AreRefusedNotFatal() {
    #expect(throws: (any Error).self) {
      try ChecklistStore.decodeChecklistsFile(xmlFile(version: Array(repeating: 0xFF, count: 20)))
    }
    #expect(throws: (any Error).self) {
      try ChecklistStore.decodeChecklistsFile(Data([0xFF, 0xFE, 0xFF]))
    }
  }

  @Test func utf8AndBinaryFilesStillDecode() throws {
    let model = DataModel()
    for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
      let encoder = PropertyListEncoder()
      encoder.outputFormat = format
      #expect(try ChecklistStore.decodeChecklistsFile(try encoder.encode(model)) == model)
    }
  }

  @Test func theStoreSetsSuchAFileAside() throws {
    let temporary = TemporaryDirectory("hostile")
    let directory = temporary.path
    let store = ChecklistStore(
      configuration: .init(dataDirectory: directory), logger: .init(label: "test"))
    let visitor = VisitorDirectory(
      dataDirectory: directory, visitorID: "0123456789abcdef0123456789abcdef")
    try FileManager.default.createDirectory(
      atPath: (visitor.checklistsPath as NSString).deletingLastPathComponent,
      withIntermediateDirectories: true)
    try xmlFile(version: Array(repeating: 0xFF, count: 20)).write(
      to: URL(fileURLWithPath: visitor.checklistsPath))
    #expect(throws: StoreError.self) { try store.load(visitor) }
    #expect(try store.load(visitor) == nil)
  }

  /// A binary property list of `objects` (object 0 on top), with 1-byte offsets and
  /// references.
  private func binaryFile(_ objects: [[UInt8]]) -> Data {
    var bytes = Array("bplist00".utf8)
    var offsets: [UInt8] = []
    for object in objects {
      offsets.append(UInt8(bytes.count))
      bytes += object
    }
    let table = UInt64(bytes.count)
    bytes += offsets
    bytes += [0, 0, 0, 0, 0, 0, 1, 1]
    for value in [UInt64(objects.count), 0, table] {
      bytes += withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }
    return Data(bytes)
  }

  /// An array or dictionary whose count (an 8-byte integer after the marker) times the
  /// reference size is above `Int.max` trapped Foundation's binary decoder; the fuzzer
  /// found it in CI. Such files, and others whose objects run out of bounds, are refused.
  @Test func malformedBinaryObjectsAreRefusedNotFatal() {
    let huge: [UInt8] = [0x13, 0x80, 0, 0, 0, 0, 0, 0, 0]
    let cases: [String: [[UInt8]]] = [
      "array of 2^63": [[0xAF] + huge],
      "dictionary of 2^63": [[0xDF] + huge],
      "reference to a missing object": [[0xA1, 0x05]],
      "string past the table": [[0x5F, 0x10, 0x40] + Array("abc".utf8)],
      "UTF-16 past the table": [[0x63, 0, 0x61, 0, 0x62]],
      "unknown marker": [[0x7F]],
      "set": [[0xC1, 0x01], [0x08]],
    ]
    for (name, objects) in cases {
      let file = binaryFile(objects)
      #expect(throws: (any Error).self, "\(name)") {
        try ChecklistStore.decodeChecklistsFile(file)
      }
    }
  }

  /// Every one-byte change and every truncation of a real binary file decodes or throws;
  /// none stops the process.
  @Test func everyOneByteChangeOfABinaryFileDecodesOrThrows() throws {
    var model = DataModel()
    let list = try model.addList(name: "Errands", icon: .folder)
    for name in ["Milk", "Bread", "Café"] { _ = try model.addItem(text: name, toList: list) }
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .binary
    let file = try encoder.encode(model)
    #expect(try ChecklistStore.decodeChecklistsFile(file) == model)
    for position in file.indices {
      for value: UInt8 in [0x00, 0x0F, 0x1F, 0x7F, 0x80, 0xAF, 0xDF, 0xFF] {
        var changed = file
        changed[position] = value
        _ = try? ChecklistStore.decodeChecklistsFile(changed)
      }
      _ = try? ChecklistStore.decodeChecklistsFile(file.prefix(position))
    }
  }
}
