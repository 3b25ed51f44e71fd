import Foundation

/// A value kept as an owner's small property list file (`Devices` in
/// `Devices.plist`, `Shares` in `Shares.plist`): the version it is written
/// with, the refusal of any other, and its bytes both ways (`OwnerFile`).
package protocol OwnerFileValue: Codable, Sendable, Equatable {
  /// What the file is called in a refusal: "devices", "shares".
  static var fileKind: String { get }
  /// The version written; a file of another version is not read.
  static var currentVersion: Int { get }
}

/// Why an owner's file was refused: damaged, or of a version this backend
/// does not read (`Devices.Invalid`, `Shares.Invalid`).
package struct OwnerFileInvalid: Error, CustomStringConvertible {
  package var description: String
}

extension OwnerFileValue {
  package typealias Invalid = OwnerFileInvalid

  /// Refuses a file whose `version` is not `currentVersion`.
  static func refuseOtherVersions(_ version: Int) throws {
    guard version == currentVersion else {
      throw Invalid(description: "\(fileKind) file version \(version) is not \(currentVersion)")
    }
  }

  /// The file's bytes (an XML property list).
  package func encoded() throws -> Data { try OwnerFile.encode(self) }

  /// The value of a file's bytes (see `OwnerFile.decode`).
  package static func decode(_ data: Data) throws -> Self {
    try OwnerFile.decode(Self.self, from: data)
  }
}
