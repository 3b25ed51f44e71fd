import ChecklistsModel
import Foundation
import Support

/// Encoding and decoding of `Checklists.plist`.
package enum ChecklistsFile {
  package static func encode(
    _ model: DataModel, format: PropertyListSerialization.PropertyListFormat
  ) throws -> Data {
    if format == .xml { return Data(ChecklistsXMLWriter.document(model)) }
    let encoder = PropertyListEncoder()
    encoder.outputFormat = format
    return try encoder.encode(model)
  }

  package static func decode(_ data: Data) throws -> DataModel {
    guard isBinaryOrUTF8(data) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: [], debugDescription: "XML property list is not UTF-8"))
    }
    guard !BinaryPropertyList.isUnsafeToParse(data) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: [], debugDescription: "malformed binary property list"))
    }
    return try PropertyListDecoder().decode(DataModel.self, from: data)
  }

  /// Foundation's XML property-list decoder stops the process (a fatal error, not a thrown
  /// one) on some bytes that are not UTF-8, e.g. twenty 0xFF bytes inside `<integer>`
  /// (found by the fuzzer). We write XML only as UTF-8, so anything else is corrupt and is
  /// refused before it reaches the decoder; binary plists and UTF-16 (with its byte-order
  /// mark) pass on as before.
  package static func isBinaryOrUTF8(_ data: Data) -> Bool {
    if data.starts(with: "bplist".utf8) { return true }
    if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) { return true }
    return String(validating: data, as: UTF8.self) != nil
  }
}
