import ArgumentParser
import Documents
import FileSystem
import Logging
import PostgresStore

/// Where the documents are kept, as `--store` names it: `files` (the data
/// directory's files, the default) or a PostgreSQL connection URI that
/// several hosts share (`postgresql://user@host/db`, or
/// `postgresql:///db?host=/run/postgresql` for a unix socket).
enum StoreLocation: Equatable, ExpressibleByArgument, CustomStringConvertible {
  case files
  /// A libpq connection URI.
  case postgres(String)

  init?(argument: String) {
    if argument == "files" {
      self = .files
    } else if argument.hasPrefix("postgresql://") || argument.hasPrefix("postgres://") {
      self = .postgres(argument)
    } else {
      return nil
    }
  }

  var description: String {
    switch self {
    case .files: "files"
    case .postgres: "postgresql"  // never the URI: it may hold a password
    }
  }

  static let help: ArgumentHelp =
    "Where documents are kept: files (in --data, the default) or a PostgreSQL URI (postgresql://…) that several hosts share."

  /// The store; its documents are named by paths under `dataDirectory`,
  /// whichever it is (a database keeps them by the part after it).
  func documents(dataDirectory: String, logger: Logger) throws -> any DocumentStore {
    switch self {
    case .files:
      return LocalDocuments()
    case .postgres(let uri):
      return try PostgresDocuments(conninfo: uri, root: dataDirectory, logger: logger)
    }
  }
}
