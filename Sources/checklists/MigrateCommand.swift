import ArgumentParser
import FileSystem
import Foundation
import Logging

/// `checklists migrate`: copies every document from a data directory into
/// PostgreSQL, or back; safe to run again (see `DocumentMigration`).
struct MigrateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "migrate",
    abstract: "Copy every document from a data directory into PostgreSQL, or back.",
    discussion: """
      checklists migrate --from-files DIR --to postgresql://…
      checklists migrate --from postgresql://… --to-files DIR

      Documents keep their names and bytes. A document the target already holds \
      with the same bytes is skipped, so a run that was cut short is resumed by \
      running it again. Nothing is ever deleted from the target. Stop the \
      backends first: a change made during the copy may be missed.
      """)

  @Option(help: "The data directory to copy from.")
  var fromFiles: String?

  @Option(help: "The PostgreSQL URI to copy to.")
  var to: String?

  @Option(help: "The PostgreSQL URI to copy from.")
  var from: String?

  @Option(help: "The data directory to copy to (created if missing).")
  var toFiles: String?

  func validate() throws {
    let toDatabase = fromFiles != nil && to != nil && from == nil && toFiles == nil
    let toFilesFromDatabase = from != nil && toFiles != nil && fromFiles == nil && to == nil
    guard toDatabase || toFilesFromDatabase else {
      throw ValidationError("Give --from-files DIR --to URI, or --from URI --to-files DIR.")
    }
    for uri in [to, from].compactMap({ $0 }) {
      guard case .postgres = StoreLocation(argument: uri) else {
        throw ValidationError("\(StoreLocation.redacted(uri)): not a postgresql:// URI.")
      }
    }
  }

  func run() throws {
    LoggingSystem.bootstrap(StreamLogHandler.standardError)
    let logger = Logger(label: "checklists")
    let migration: DocumentMigration
    if let fromFiles, let to {
      let root = Self.absolute(fromFiles)
      migration = DocumentMigration(
        from: LocalDocuments(), root: root,
        to: try StoreLocation.postgres(to).documents(dataDirectory: root, logger: logger),
        root: root)
    } else if let from, let toFiles {
      let root = Self.absolute(toFiles)
      migration = DocumentMigration(
        from: try StoreLocation.postgres(from).documents(dataDirectory: root, logger: logger),
        root: root, to: LocalDocuments(), root: root)
    } else {
      throw ExitCode.validationFailure
    }
    do {
      let report = try migration.run()
      print(
        "\(report.copied) documents copied, \(report.unchanged) already there, "
          + "\(report.directories) directories")
    } catch {
      logger.critical("migration stopped (run it again to resume): \(error)")
      throw ExitCode.failure
    }
  }

  /// The same directory however it was named, so that a database keeps
  /// names relative to it.
  static func absolute(_ path: String) -> String {
    let url = URL(fileURLWithPath: path).standardizedFileURL
    return url.path.hasSuffix("/") && url.path.count > 1 ? String(url.path.dropLast()) : url.path
  }
}
