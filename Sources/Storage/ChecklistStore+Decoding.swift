import ChecklistsModel
import Foundation

extension ChecklistStore {
  /// Decodes the bytes of a `Checklists.plist` exactly as `load(_:)` does,
  /// without a file: the entry point of the fuzzer and of tests that feed
  /// hostile bytes.
  ///
  /// - Parameter bytes: the file's contents (XML or binary property list).
  /// - Returns: the decoded model.
  /// - Throws: the decoder's error when the bytes are not a valid file.
  package static func decodeChecklistsFile(_ bytes: Data) throws -> DataModel {
    try ChecklistsFile.decode(bytes)
  }
}
