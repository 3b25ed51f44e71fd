/// Why a `VersionedFile` could not give the value of a file.
package enum VersionedFileError: Error, Sendable, CustomStringConvertible {
  /// The engine failed (a system call, a database).
  case io(DocumentError)
  /// The lock under which an undecodable version is set aside was not
  /// taken (`DocumentLock`); nothing was moved.
  case busy(DocumentLock.Busy)
  /// The file could not be decoded; it was moved aside to `keptAs` (never
  /// overwritten or deleted).
  case setAside(path: String, keptAs: String, reason: any Error)
  /// The decoder refused the file without calling it corrupt (e.g. written
  /// by a newer version): it is left where it is.
  case leftInPlace(path: String, reason: any Error)
  /// Each read met a version that was replaced before it could be set
  /// aside, as many times as the caller allowed.
  case unsettled(path: String)

  package var description: String {
    switch self {
    case .io(let error): "\(error)"
    case .busy(let busy): "\(busy)"
    case .setAside(let path, let keptAs, let reason): "\(path): \(reason); kept as \(keptAs)"
    case .leftInPlace(let path, let reason): "\(path): \(reason)"
    case .unsettled(let path): "\(path): replaced during every read"
    }
  }
}

extension DocumentError {
  /// A load that met a newer version at every look (`VersionedFileError.unsettled`),
  /// as a caller that tells only the seam's errors reports it.
  package static func unsettled(_ path: String) -> DocumentError {
    DocumentError(
      operation: "load", path: path, reason: .failed, detail: "replaced during every read")
  }
}
