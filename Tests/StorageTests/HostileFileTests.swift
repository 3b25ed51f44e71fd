import ChecklistsModel
import Foundation
import Logging
import Storage
import XCTest

/// Inputs found by the fuzzer (`scripts/fuzz`, target `checklists-plist`).
final class HostileFileTests: XCTestCase {
  private func xmlFile(version: [UInt8]) -> Data {
    Data(
      Array(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict><key>version</key><integer>"
          .utf8) + version + Array("</integer></dict></plist>".utf8))
  }

  /// Twenty 0xFF bytes in `<integer>` stopped the process inside Foundation's decoder;
  /// now such a file is refused as corrupt (and so set aside by the store).
  func testBytesThatAreNotUTF8AreRefusedNotFatal() {
    XCTAssertThrowsError(
      try ChecklistStore.decodeChecklistsFile(xmlFile(version: Array(repeating: 0xFF, count: 20))))
    XCTAssertThrowsError(try ChecklistStore.decodeChecklistsFile(Data([0xFF, 0xFE, 0xFF])))
  }

  func testUTF8AndBinaryFilesStillDecode() throws {
    let model = DataModel()
    for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
      let encoder = PropertyListEncoder()
      encoder.outputFormat = format
      XCTAssertEqual(try ChecklistStore.decodeChecklistsFile(try encoder.encode(model)), model)
    }
  }

  func testTheStoreSetsSuchAFileAside() throws {
    let directory = NSTemporaryDirectory() + "hostile-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = ChecklistStore(
      configuration: .init(dataDirectory: directory), logger: .init(label: "test"))
    let visitor = VisitorDirectory(
      dataDirectory: directory, visitorID: "0123456789abcdef0123456789abcdef")
    try FileManager.default.createDirectory(
      atPath: (visitor.checklistsPath as NSString).deletingLastPathComponent,
      withIntermediateDirectories: true)
    try xmlFile(version: Array(repeating: 0xFF, count: 20)).write(
      to: URL(fileURLWithPath: visitor.checklistsPath))
    XCTAssertThrowsError(try store.load(visitor))
    XCTAssertNil(try store.load(visitor))
  }
}
