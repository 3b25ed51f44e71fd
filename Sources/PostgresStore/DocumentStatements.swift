/// The SQL of `PostgresDocuments`: the schema, made once, and one prepared
/// statement per operation, each one round trip.
///
/// Every write, removal or setting aside takes a fresh number of the
/// sequence `document_versions` and gives it, in the same statement, to
/// the document and to its directory's row: so neither identity ever
/// repeats, and a directory's version changes with every change to what it
/// holds. The same statement stamps the document with the time it was
/// written (`written`, the transaction's `now()`), which every read of a
/// version returns beside it in whole seconds (`writtenSeconds`): what a
/// file's modification time tells (a calendar feed's `Last-Modified`).
enum DocumentStatements {
  /// Made on first use, by each host that starts: the advisory lock keeps
  /// several hosts starting at once from colliding on `CREATE … IF NOT
  /// EXISTS`. A document over 2 KB is compressed with lz4 where the server
  /// has it: its default (pglz) was the server's costliest function under
  /// durable toggles, 3% of all CPU.
  ///
  /// A database made before documents kept their write time gets the
  /// column on the first start after the upgrade (no rewrite of the table:
  /// the default is worked out once), its documents reading as written
  /// then; each is stamped anew at its next write.
  static let schema = """
    BEGIN;
    SELECT pg_advisory_xact_lock(hashtextextended('checklists schema', 0));
    DO $$ BEGIN
      -- The index is made last and the column came later: when both are
      -- there, nothing is touched (and no table is locked while other
      -- hosts write).
      IF to_regclass('directories_by_prefix') IS NOT NULL AND EXISTS (
        SELECT FROM pg_attribute
        WHERE attrelid = to_regclass('documents') AND attname = 'written' AND NOT attisdropped)
      THEN RETURN; END IF;
      CREATE SEQUENCE IF NOT EXISTS document_versions;
      CREATE TABLE IF NOT EXISTS documents (
        directory text NOT NULL,
        name text NOT NULL,
        bytes bytea NOT NULL,
        version bigint NOT NULL,
        written timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (directory, name));
      ALTER TABLE documents ADD COLUMN IF NOT EXISTS written timestamptz NOT NULL DEFAULT now();
      BEGIN
        ALTER TABLE documents ALTER COLUMN bytes SET COMPRESSION lz4;
      EXCEPTION WHEN feature_not_supported THEN NULL;
      END;
      CREATE TABLE IF NOT EXISTS directories (
        directory text PRIMARY KEY,
        version bigint NOT NULL,
        active timestamptz);
      CREATE INDEX IF NOT EXISTS directories_by_prefix
        ON directories (directory text_pattern_ops);
    END $$;
    COMMIT
    """

  /// Begins a transaction (prepared like the rest: one is begun per lock).
  static let begin = PreparedStatement(name: "begin", sql: "BEGIN")

  /// Takes, for the transaction, the advisory lock named $1, waiting at
  /// most $2 (`250ms`): the bound is set first, in a subquery that
  /// `OFFSET 0` keeps from being merged into the lock's own projection.
  static let lock = PreparedStatement(
    name: "lock",
    sql: """
      SELECT pg_advisory_xact_lock(hashtextextended($1::text, 0))
      FROM (SELECT set_config('lock_timeout', $2::text, true) OFFSET 0) AS bounded
      """)

  /// The seconds since 1970 of a document's `written`, as a bigint.
  static let writtenSeconds = "floor(extract(epoch FROM written))::bigint"

  /// The version, size and write time of a document: (bigint, bigint,
  /// bigint).
  static let identity = PreparedStatement(
    name: "identity",
    sql: """
      SELECT version, octet_length(bytes)::bigint, \(writtenSeconds) FROM documents
      WHERE directory = $1::text AND name = $2::text
      """)

  /// The bytes, version and write time of a document: (bytea, bigint,
  /// bigint).
  static let snapshot = PreparedStatement(
    name: "snapshot",
    sql: """
      SELECT bytes, version, \(writtenSeconds) FROM documents
      WHERE directory = $1::text AND name = $2::text
      """)

  /// Writes a document ($1 directory, $2 name, $3 bytes) and bumps its
  /// directory's version: (bigint, bigint), its version and write time.
  static let write = PreparedStatement(
    name: "write",
    sql: """
      WITH next AS (SELECT nextval('document_versions') AS version),
      owner AS (
        INSERT INTO directories (directory, version) SELECT $1::text, version FROM next
        ON CONFLICT (directory) DO UPDATE SET version = excluded.version)
      INSERT INTO documents (directory, name, bytes, version, written)
      SELECT $1::text, $2::text, $3::bytea, version, now() FROM next
      ON CONFLICT (directory, name) DO UPDATE
      SET bytes = excluded.bytes, version = excluded.version, written = excluded.written
      RETURNING version, \(writtenSeconds)
      """)

  /// Writes a document ($1 directory, $2 name, $3 bytes) only if its
  /// version is still $4, and bumps its directory's version. One row:
  /// (true, the new version, null, its write time) when it wrote; (false,
  /// the version, the bytes, the write time) of the document as it is when
  /// another version replaced $4; none when the document is gone. Run after `lock` in one transaction,
  /// so that it never comes between what a lock's holder reads and what it
  /// writes (and so that what it reads is the last version committed).
  static let replaceIfVersion = PreparedStatement(
    name: "replace_if_version",
    sql: """
      WITH next AS (SELECT nextval('document_versions') AS version),
      changed AS (
        UPDATE documents SET bytes = $3::bytea, version = (SELECT version FROM next), written = now()
        WHERE directory = $1::text AND name = $2::text AND version = $4::bigint
        RETURNING version, written),
      owner AS (
        INSERT INTO directories (directory, version) SELECT $1::text, version FROM changed
        ON CONFLICT (directory) DO UPDATE SET version = excluded.version)
      SELECT true, version, NULL::bytea, \(writtenSeconds) FROM changed
      UNION ALL
      SELECT false, version, bytes, \(writtenSeconds) FROM documents
      WHERE directory = $1::text AND name = $2::text AND NOT EXISTS (SELECT FROM changed)
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
        UPDATE documents SET name = $3::text, version = (SELECT version FROM next), written = now()
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

  /// The versions of the directories in $1 (a `text[]` literal, see
  /// `arrayLiteral`): (text, bigint) for each that has a row.
  static let directoryVersions = PreparedStatement(
    name: "directory_versions",
    sql: """
      SELECT directory, version FROM directories WHERE directory = ANY(($1::text)::text[])
      """)

  /// The version, size and write time of the documents named by $1
  /// (directories) and $2 (names), two `text[]` literals of one length:
  /// (text, text, bigint, bigint, bigint) for each that exists.
  static let identities = PreparedStatement(
    name: "identities",
    sql: """
      SELECT d.directory, d.name, d.version, octet_length(d.bytes)::bigint,
        floor(extract(epoch FROM d.written))::bigint
      FROM unnest(($1::text)::text[], ($2::text)::text[]) AS wanted (directory, name)
      JOIN documents d ON d.directory = wanted.directory AND d.name = wanted.name
      """)

  /// The bytes, version and write time of the documents named as in
  /// `identities`: (text, text, bytea, bigint, bigint) for each that
  /// exists.
  static let snapshots = PreparedStatement(
    name: "snapshots",
    sql: """
      SELECT d.directory, d.name, d.bytes, d.version, floor(extract(epoch FROM d.written))::bigint
      FROM unnest(($1::text)::text[], ($2::text)::text[]) AS wanted (directory, name)
      JOIN documents d ON d.directory = wanted.directory AND d.name = wanted.name
      """)

  /// `texts` as the literal of a `text[]`, every element quoted.
  static func arrayLiteral<S: Sequence<String>>(_ texts: S) -> String {
    var literal = "{"
    var first = true
    for text in texts {
      if !first { literal.append(",") }
      first = false
      literal.append("\"")
      for character in text {
        if character == "\\" || character == "\"" { literal.append("\\") }
        literal.append(character)
      }
      literal.append("\"")
    }
    return literal + "}"
  }

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
