import Documents

/// Why the store could not load or save a visitor's data.
package enum StoreError: Error, Sendable {
  /// The file could not be decoded; it was moved aside to `keptAs` (never
  /// overwritten or deleted) and the event logged.
  case unreadable(path: String, keptAs: String)
  /// The engine failed (a system call, a database).
  case io(DocumentError)
  /// Too many of this visitor's changes wait for their lock, or it stayed
  /// taken too long (`DocumentLock`); nothing was changed.
  case busy(DocumentLock.Busy)

  /// A sentence for the visitor.
  package var message: String {
    switch self {
    case .unreadable:
      "Your checklists could not be read, so they were set aside for repair. Nothing was overwritten."
    case .io:
      "Your checklists could not be read or saved just now. Please try again in a moment."
    case .busy:
      "Your checklists are busy with other changes sent at the same time. Nothing was changed; please try again in a moment."
    }
  }

  /// What failed, for the log: the system call or the kept file.
  package var detail: String {
    switch self {
    case .unreadable(let path, let keptAs): "\(path) unreadable, kept as \(keptAs)"
    case .io(let error): "\(error)"
    case .busy(let busy): "\(busy)"
    }
  }
}

extension StoreError {
  /// `body`, with a failed system call or a busy lock told as the store's
  /// errors (a busy lock is `503`, a failed system call `500`); anything
  /// else it throws passes unchanged.
  package static func reporting<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let busy as DocumentLock.Busy {
      throw StoreError.busy(busy)
    } catch let error as DocumentError {
      throw StoreError.io(error)
    }
  }
}
