/// The SQL of `PostgresDocuments`: the schema, made once, and one prepared
/// statement per operation, each one round trip.
///
/// Every write, removal or setting aside takes a fresh number of the
/// sequence `document_versions` and gives it, in the same statement, to
/// the document and to its directory's row: so neither identity ever
/// repeats, and a directory's version changes with every change to what it
/// holds.
enum DocumentStatements {
  /// Made on first use, by each host that starts: the advisory lock keeps
  /// several hosts starting at once from colliding on `CREATE … IF NOT
  /// EXISTS`.
  static let schema = """
    BEGIN;
    SELECT pg_advisory_xact_lock(hashtextextended('checklists schema', 0));
    CREATE SEQUENCE IF NOT EXISTS document_versions;
    CREATE TABLE IF NOT EXISTS documents (
      directory text NOT NULL,
      name text NOT NULL,
      bytes bytea NOT NULL,
      version bigint NOT NULL,
      PRIMARY KEY (directory, name));
    CREATE TABLE IF NOT EXISTS directories (
      directory text PRIMARY KEY,
      version bigint NOT NULL,
      active timestamptz);
    CREATE INDEX IF NOT EXISTS directories_by_prefix
      ON directories (directory text_pattern_ops);
    COMMIT
    """

  /// The version and size of a document: (bigint, bigint).
  static let identity = PreparedStatement(
    name: "identity",
    sql: """
      SELECT version, octet_length(bytes)::bigint FROM documents
      WHERE directory = $1::text AND name = $2::text
      """)

  /// The bytes and version of a document: (bytea, bigint).
  static let snapshot = PreparedStatement(
    name: "snapshot",
    sql: "SELECT bytes, version FROM documents WHERE directory = $1::text AND name = $2::text")

  /// Writes a document ($1 directory, $2 name, $3 bytes) and bumps its
  /// directory's version.
  static let write = PreparedStatement(
    name: "write",
    sql: """
      WITH next AS (SELECT nextval('document_versions') AS version),
      owner AS (
        INSERT INTO directories (directory, version) SELECT $1::text, version FROM next
        ON CONFLICT (directory) DO UPDATE SET version = excluded.version)
      INSERT INTO documents (directory, name, bytes, version)
      SELECT $1::text, $2::text, $3::bytea, version FROM next
      ON CONFLICT (directory, name) DO UPDATE SET bytes = excluded.bytes, version = excluded.version
      RETURNING version
      """)

  /// Creates a document unless it exists; a row when it did.
  static let create = PreparedStatement(
    name: "create",
    sql: """
      WITH next AS (SELECT nextval('document_versions') AS version),
      created AS (
        INSERT INTO documents (directory, name, bytes, version)
        SELECT $1::text, $2::text, $3::bytea, version FROM next
        ON CONFLICT (directory, name) DO NOTHING
        RETURNING version)
      INSERT INTO directories (directory, version) SELECT $1::text, version FROM created
      ON CONFLICT (directory) DO UPDATE SET version = excluded.version
      RETURNING version
      """)

  /// Removes a document and, when there was one, bumps its directory's
  /// version.
  static let remove = PreparedStatement(
    name: "remove",
    sql: """
      WITH removed AS (
        DELETE FROM documents WHERE directory = $1::text AND name = $2::text RETURNING 1)
      INSERT INTO directories (directory, version)
      SELECT $1::text, nextval('document_versions') FROM removed
      ON CONFLICT (directory) DO UPDATE SET version = excluded.version
      """)

  /// The names in a directory ($1) that start with $2: (text).
  static let namesStarting = PreparedStatement(
    name: "names_starting",
    sql: """
      SELECT name FROM documents WHERE directory = $1::text AND starts_with(name, $2::text)
      """)

  /// Renames a document ($1 directory, $2 name) to $3 and bumps its
  /// directory's version; a row when there was one.
  static let rename = PreparedStatement(
    name: "rename",
    sql: """
      WITH next AS (SELECT nextval('document_versions') AS version),
      moved AS (
        UPDATE documents SET name = $3::text, version = (SELECT version FROM next)
        WHERE directory = $1::text AND name = $2::text
        RETURNING version)
      INSERT INTO directories (directory, version) SELECT $1::text, version FROM moved
      ON CONFLICT (directory) DO UPDATE SET version = excluded.version
      RETURNING version
      """)

  /// Notes that a directory's owner was active, if it has a row.
  static let markActive = PreparedStatement(
    name: "mark_active",
    sql: "UPDATE directories SET active = now() WHERE directory = $1::text")

  /// A directory's version: (bigint).
  static let directoryVersion = PreparedStatement(
    name: "directory_version",
    sql: "SELECT version FROM directories WHERE directory = $1::text")

  /// The names of the documents in a directory: (text).
  static let names = PreparedStatement(
    name: "names",
    sql: "SELECT name FROM documents WHERE directory = $1::text")

  /// The next component of every directory under a prefix ($1, with its
  /// trailing `/`, or "" for the data directory; $2 the same as a `LIKE`
  /// pattern): (text).
  static let subdirectories = PreparedStatement(
    name: "subdirectories",
    sql: """
      SELECT DISTINCT split_part(substr(directory, char_length($1::text) + 1), '/', 1)
      FROM directories WHERE directory LIKE $2::text AND directory <> ''
      """)
}
