import Documents

extension FileError {
  /// The failure as the seam tells it (`LocalDocuments`): the same
  /// operation, path and words, the reason a caller acts on.
  package var documentError: DocumentError {
    DocumentError(operation: operation, path: path, reason: reason, detail: errno.description)
  }

  private var reason: DocumentError.Reason {
    switch errno {
    case .noSuchFileOrDirectory: .notFound
    case .isDirectory: .isDirectory
    default: .failed
    }
  }
}
