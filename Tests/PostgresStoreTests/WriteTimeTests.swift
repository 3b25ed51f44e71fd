import Documents
import FileSystem
import Foundation
import Logging
import PostgresStore
import TestSupport
import Testing

/// A document's identity tells when it was written, on both engines (a
/// file's modification time; a row's `written`): a calendar feed's
/// `Last-Modified` and `DTSTAMP` come from it. On PostgreSQL it was 0
/// (1970), so any `If-Modified-Since` found the feed unchanged.
@Suite("A document's write time, on files and on PostgreSQL")
struct WriteTimeTests {
  /// The seconds since 1970, now.
  static func seconds() -> Int64 { Int64(Date().timeIntervalSince1970.rounded(.down)) }

  @Test(arguments: Engine.allCases)
  func everyWayOfReadingAVersionTellsItsWriteTime(engine: Engine) throws {
    let fixture = try StoreFixture(engine)
    let directory = try fixture.prepared("users/ab/key1")
    let path = directory + "/Checklists.plist"
    let before = Self.seconds()
    let written = try fixture.store.write(Data("first".utf8), to: path, durable: true)
    let after = Self.seconds()
    #expect((before...after).contains(written.modifiedSeconds))
    // Shared reads outside a lock, and the reads of a lock's transaction.
    #expect(try fixture.store.identity(of: path) == written)
    #expect(try fixture.store.snapshot(of: path)?.version == written)
    let locked = try fixture.store.withLock(directory + "/.Checklists.lock") {
      () throws -> [DocumentVersion?] in
      [try fixture.store.identity(of: path), try fixture.store.snapshot(of: path)?.version]
    }
    #expect(locked == [written, written])
    // A later write moves it on; a conditional one tells it too.
    sleep(1)
    let outcome = try fixture.store.replace(
      Data("second".utf8), at: path, ifStill: written, lockPath: directory + "/.Checklists.lock",
      timeout: .seconds(1), durable: true)
    guard case .written(let replaced) = outcome else {
      Issue.record("not written: \(outcome)")
      return
    }
    #expect(replaced.modifiedSeconds > written.modifiedSeconds)
    #expect(replaced.modifiedSeconds <= Self.seconds())
    #expect(try fixture.store.identity(of: path) == replaced)
  }

  @Test func aDatabaseFromBeforeWriteTimesGetsThemOnStart() throws {
    let postgres = try TemporaryPostgres.shared()
    let conninfo = try postgres.createDatabase()
    let database = String(try #require(conninfo.split(separator: "dbname=").last))
    // The schema as it was made before documents kept their write time.
    try postgres.sql(
      """
      CREATE SEQUENCE document_versions;
      CREATE TABLE documents (
        directory text NOT NULL, name text NOT NULL, bytes bytea NOT NULL,
        version bigint NOT NULL, PRIMARY KEY (directory, name));
      CREATE TABLE directories (
        directory text PRIMARY KEY, version bigint NOT NULL, active timestamptz);
      CREATE INDEX directories_by_prefix ON directories (directory text_pattern_ops);
      INSERT INTO documents VALUES ('users/ab/key1', 'Checklists.plist', 'old', 7);
      INSERT INTO directories VALUES ('users/ab/key1', 7, NULL);
      SELECT setval('document_versions', 7);
      """, database: database)
    let root = "/srv/checklists-\(UUID().uuidString)/data"
    let store = PostgresDocuments(
      conninfo: conninfo, root: root, logger: Logger(label: "write-time-tests"))
    let before = Self.seconds()
    let path = root + "/users/ab/key1/Checklists.plist"
    let old = try #require(try store.identity(of: path))
    // Read as written when the column came: a real time, not 1970.
    #expect((before...Self.seconds()).contains(old.modifiedSeconds))
    #expect(try store.read(path) == Data("old".utf8))
    sleep(1)
    let written = try store.write(Data("new".utf8), to: path, durable: true)
    #expect(written.modifiedSeconds > old.modifiedSeconds)
    #expect(try store.identity(of: path) == written)
  }
}
