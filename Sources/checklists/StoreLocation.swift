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
  /// Neither, kept with any password redacted: refused by `validated()`.
  /// Refused in parsing instead, the argument parser's message would
  /// repeat the value, password and all, on standard error (the log).
  case unrecognized(String)

  init(argument: String) {
    if argument == "files" {
      self = .files
    } else if argument.hasPrefix("postgresql://") || argument.hasPrefix("postgres://") {
      self = .postgres(argument)
    } else {
      self = .unrecognized(Self.redacted(argument))
    }
  }

  var description: String {
    switch self {
    case .files: "files"
    case .postgres: "postgresql"  // never the URI: it may hold a password
    case .unrecognized(let text): text
    }
  }

  /// Throws for an unrecognized `--store`, naming it without a password.
  func validated() throws(ValidationError) {
    if case .unrecognized(let text) = self {
      throw ValidationError("--store takes files or a postgresql:// URI, not \"\(text)\".")
    }
  }

  /// True when `uri` carries a password (`user:password@…` or
  /// `?password=`): the process list shows it to every user of the machine.
  static func holdsPassword(_ uri: String) -> Bool {
    redacted(uri) != uri
  }

  /// `uri` with any password replaced by `…`, fit for a message.
  static func redacted(_ uri: String) -> String {
    var text = uri
    if let scheme = text.range(of: "://") {
      let authorityEnd =
        text[scheme.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" }) ?? text.endIndex
      let authority = scheme.upperBound..<authorityEnd
      if let at = text[authority].lastIndex(of: "@"),
        let colon = text[scheme.upperBound..<at].firstIndex(of: ":")
      {
        text.replaceSubrange(text.index(after: colon)..<at, with: "…")
      }
    }
    if let query = text.firstIndex(of: "?") {
      let parameters = text[text.index(after: query)...].split(
        separator: "&", omittingEmptySubsequences: false
      ).map { $0.hasPrefix("password=") ? "password=…" : String($0) }
      text = text[...query] + parameters.joined(separator: "&")
    }
    return text
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
    case .unrecognized:
      try validated()
      return LocalDocuments()
    }
  }
}
