import ChecklistsModel
import Foundation
import PropertyList

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

  /// The model of a file's bytes, XML or binary, read by the strict readers (Foundation's
  /// decoder stopped the process on some damaged files: see `PropertyList`).
  ///
  /// - Throws: `PropertyListError` when the bytes are not a property list, `DecodingError`
  ///   or the model's own errors when it does not hold a model.
  package static func decode(_ data: Data) throws -> DataModel {
    let bytes = [UInt8](data)
    if let model = ChecklistsXMLReader.model(bytes) { return model }
    return try decodeGenerally(bytes)
  }

  /// The model of a file's bytes through `PropertyList` and `Codable`:
  /// every file the direct reader (`ChecklistsXMLReader`) leaves.
  package static func decodeGenerally(_ bytes: [UInt8]) throws -> DataModel {
    try PropertyList(reading: bytes).decode(DataModel.self)
  }

  /// The model the direct reader reads from `bytes`, or nil where it
  /// leaves them to the general one: for tests and the fuzzer, which
  /// check that the two agree.
  package static func decodeDirectly(_ bytes: [UInt8]) -> DataModel? {
    ChecklistsXMLReader.model(bytes)
  }
}
