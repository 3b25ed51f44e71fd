import Documents
import Foundation
import Logging
import PropertyList

/// What the owner's small files (`Devices.plist`, `Shares.plist`,
/// `PendingImport.plist`) share: strict decoding, and loading
/// (`IndexedOwnerFile`, `VersionedFile`) with failures told as the store's.
enum OwnerFile {
  /// Why a small owner file was refused.
  struct Invalid: Error, CustomStringConvertible {
    var description: String
  }

  /// The value of a file's bytes, read by the strict readers (see `PropertyList`).
  static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
    try PropertyList(reading: [UInt8](data)).decode(type)
  }

  /// The file's bytes (an XML property list).
  static func encode(_ value: some Encodable) throws -> Data {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    return try encoder.encode(value)
  }

  /// The owner's file (nil when there is none). One that cannot be read
  /// is set aside, logged as `what`, and reads as none.
  static func load<Value>(
    _ records: IndexedOwnerFile<Value>, owner: VisitorDirectory, locked: Bool, what: String,
    logger: Logger
  ) throws(StoreError) -> Value? {
    do {
      return try records.load(owner, locked: locked)
    } catch {
      switch error {
      case .io(let error): throw .io(error)
      case .busy(let busy): throw .busy(busy)
      case .setAside(let path, let keptAs, let reason):
        logger.error(
          "unreadable \(what) file set aside",
          metadata: ["path": "\(path)", "keptAs": "\(keptAs)", "reason": "\(reason)"])
        return nil
      case .leftInPlace(let path, let reason):
        throw .io(
          DocumentError(operation: "load", path: path, reason: .failed, detail: "\(reason)"))
      case .unsettled(let path):
        throw .io(DocumentError.unsettled(path))
      }
    }
  }
}
