import GRDB

/// `JournalSchema` defines the journal's tables as numbered GRDB migrations.
///
/// CHECK constraints use `=` and `OR`, not `IN (...)`: SQLite rebuilds a constant `IN` list
/// for every row written, which doubled the cost of a bulk insert.
///
/// Each migration sets `PRAGMA user_version` to its number, so a journal written by a newer
/// Ferry is recognised without knowing its migrations. Never edit a shipped migration; add
/// the next one.
///
/// Version 1:
/// - `task`: one row per download or upload; spec columns, queue placement (`state`,
///   `priority`, `position`), attempts, timestamps (Unix milliseconds) and the resume
///   record of single-stream downloads (`resume_url`, `resume_etag`,
///   `resume_last_modified`, `total_length`, `durable_offset`).
/// - `task_url`, `task_header`: mirrors and request headers, ordered by `ordinal`.
/// - `upload_field`, `upload_file`: the form of an upload, ordered by `ordinal`.
/// - `segment`: byte ranges of a download split across connections (none for a single stream).
/// - `journal_meta`: `revision` (bumped by every change other than progress checkpoints,
///   polled by other processes), the `lowest_position`/`highest_position` bounds, and the
///   journal's random `identity` (added the first time a scheduler asks for it).
///
/// Version 2:
/// - `task.reply`: a short summary of the server's reply to an upload (status and the start
///   of the body), shown in the front end's detail pane.
///
/// Version 3:
/// - `task_by_state` (state, priority, position) gives way to `task_queued`, the queue order
///   of the `queued` tasks only (a partial index): the scheduler reads only those, and every
///   task moving from `queued` to `running` to `done` rewrote two entries of the old index
///   (a third of the cost of recording a small download); now one entry goes, once.
///
/// Version 4:
/// - `task.file_name`: the name a download writes in its directory (its `.part` is
///   `file_name.part`), chosen the first time it starts and kept from then on, so a task
///   that shares its requested name with others keeps its own name across restarts.
enum JournalSchema {
    /// `version` is the newest schema version this build understands.
    static let version = 9

    /// `applicationID` marks an SQLite file as a Ferry journal (`PRAGMA application_id`, "FRRY").
    static let applicationID: Int32 = 0x4652_5259

    /// `tables` are the tables every journal of this version must have.
    static let tables = ["task", "task_url", "task_header", "upload_field", "upload_file", "segment", "journal_meta", "upload_resume"]

    /// `migrator` registers every migration in order.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", migrate: version1)
        migrator.registerMigration("v2", migrate: version2)
        migrator.registerMigration("v3", migrate: version3)
        migrator.registerMigration("v4", migrate: version4)
        migrator.registerMigration("v5", migrate: version5)
        migrator.registerMigration("v6", migrate: version6)
        migrator.registerMigration("v7", migrate: version7)
        migrator.registerMigration("v8", migrate: version8)
        migrator.registerMigration("v9", migrate: version9)
        return migrator
    }

    private static func version1(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE task (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                kind TEXT NOT NULL CHECK (kind = 'download' OR kind = 'upload'),
                state TEXT NOT NULL CHECK (state = 'queued' OR state = 'running' OR state = 'paused'
                    OR state = 'done' OR state = 'failed' OR state = 'cancelled'),
                priority INTEGER NOT NULL DEFAULT 0,
                position INTEGER NOT NULL,
                destination_dir TEXT,
                requested_name TEXT,
                final_path TEXT,
                overwrite INTEGER NOT NULL DEFAULT 0 CHECK (overwrite = 0 OR overwrite = 1),
                content_disposition INTEGER NOT NULL DEFAULT 0 CHECK (content_disposition = 0 OR content_disposition = 1),
                checksum_algorithm TEXT CHECK (checksum_algorithm = 'md5' OR checksum_algorithm = 'sha-1'
                    OR checksum_algorithm = 'sha-256' OR checksum_algorithm = 'sha-512'),
                checksum_hex TEXT CHECK ((checksum_algorithm IS NULL) = (checksum_hex IS NULL)),
                max_download_limit INTEGER CHECK (max_download_limit > 0),
                retries INTEGER CHECK (retries >= 0),
                upload_method TEXT CHECK ((kind = 'upload') = (upload_method IS NOT NULL)),
                upload_body_file TEXT,
                attempts INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                started_at INTEGER,
                finished_at INTEGER,
                resume_url TEXT,
                resume_etag TEXT,
                resume_last_modified TEXT,
                total_length INTEGER CHECK (total_length >= 0),
                durable_offset INTEGER NOT NULL DEFAULT 0 CHECK (durable_offset >= 0)
            );
            CREATE INDEX task_by_order ON task (priority DESC, position);
            CREATE INDEX task_by_state ON task (state, priority DESC, position);

            CREATE TABLE task_url (
                task_id INTEGER NOT NULL REFERENCES task (id) ON DELETE CASCADE,
                ordinal INTEGER NOT NULL,
                url TEXT NOT NULL,
                PRIMARY KEY (task_id, ordinal)
            ) WITHOUT ROWID;

            CREATE TABLE task_header (
                task_id INTEGER NOT NULL REFERENCES task (id) ON DELETE CASCADE,
                ordinal INTEGER NOT NULL,
                name TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (task_id, ordinal)
            ) WITHOUT ROWID;

            CREATE TABLE upload_field (
                task_id INTEGER NOT NULL REFERENCES task (id) ON DELETE CASCADE,
                ordinal INTEGER NOT NULL,
                name TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (task_id, ordinal)
            ) WITHOUT ROWID;

            CREATE TABLE upload_file (
                task_id INTEGER NOT NULL REFERENCES task (id) ON DELETE CASCADE,
                ordinal INTEGER NOT NULL,
                field_name TEXT NOT NULL,
                path TEXT NOT NULL,
                filename TEXT,
                mime_type TEXT,
                PRIMARY KEY (task_id, ordinal)
            ) WITHOUT ROWID;

            CREATE TABLE segment (
                task_id INTEGER NOT NULL REFERENCES task (id) ON DELETE CASCADE,
                start INTEGER NOT NULL CHECK (start >= 0),
                "end" INTEGER CHECK ("end" >= start),
                durable_offset INTEGER NOT NULL CHECK (durable_offset >= start),
                PRIMARY KEY (task_id, start)
            ) WITHOUT ROWID;

            CREATE TABLE journal_meta (
                key TEXT PRIMARY KEY,
                value INTEGER NOT NULL
            ) WITHOUT ROWID;
            INSERT INTO journal_meta (key, value)
                VALUES ('revision', 0), ('lowest_position', 0), ('highest_position', 0);
            """)
        try db.execute(sql: "PRAGMA application_id = \(applicationID)")
        try db.execute(sql: "PRAGMA user_version = 1")
    }

    private static func version2(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE task ADD COLUMN reply TEXT")
        try db.execute(sql: "PRAGMA user_version = 2")
    }

    private static func version3(_ db: Database) throws {
        try db.execute(sql: "DROP INDEX task_by_state")
        try db.execute(sql: "CREATE INDEX task_queued ON task (priority DESC, position) WHERE state = 'queued'")
        try db.execute(sql: "PRAGMA user_version = 3")
    }

    private static func version4(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE task ADD COLUMN file_name TEXT")
        try db.execute(sql: "PRAGMA user_version = 4")
    }

    /// Version 5: how many connections a download uses and the smallest range it splits
    /// (`NULL`: the engine's defaults).
    private static func version5(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE task ADD COLUMN connections INTEGER CHECK (connections BETWEEN 1 AND 16)")
        try db.execute(sql: "ALTER TABLE task ADD COLUMN min_split_size INTEGER CHECK (min_split_size > 0)")
        try db.execute(sql: "PRAGMA user_version = 5")
    }

    /// Version 6: a task's own trust, login, proxy, cookie and compression settings
    /// (`ConnectionSettings` as JSON; `NULL`: none, the engine's apply).
    private static func version6(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE task ADD COLUMN connection TEXT CHECK (connection IS NULL OR json_valid(connection))")
        try db.execute(sql: "PRAGMA user_version = 6")
    }

    /// v7: a finished download's file as Ferry named it (modification time in nanoseconds,
    /// inode), so that "already saved" is said only of that file.
    private static func version7(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE task ADD COLUMN saved_mtime_ns INTEGER")
        try db.execute(sql: "ALTER TABLE task ADD COLUMN saved_inode INTEGER")
        try db.execute(sql: "PRAGMA user_version = 7")
    }

    /// v8: `upload_resume`, what a resumable upload needs to go on after its process ended
    /// (`UploadResumeData` as JSON), by key: `task:<id>` for a queued upload (removed with its
    /// task), a digest of the request for `ferry put`; `task.upload_resumable`, how a queued
    /// upload resumes (`auto`, `ietf`, `tus`; `NULL`: it does not).
    private static func version8(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE upload_resume (
                key TEXT PRIMARY KEY,
                task_id INTEGER REFERENCES task(id) ON DELETE CASCADE,
                data TEXT NOT NULL CHECK (json_valid(data)),
                updated_at INTEGER NOT NULL
            )
            """)
        try db.execute(sql: "ALTER TABLE task ADD COLUMN upload_resumable TEXT CHECK (upload_resumable IN ('auto', 'ietf', 'tus'))")
        try db.execute(sql: "PRAGMA user_version = 8")
    }

    /// v9: a download's piece hashes (`PieceHashes.encoded`: `algorithm:length:hash,...`, from
    /// a Metalink) and the pieces checked against them whose bytes are on disk
    /// (`VerifiedPieces`: `0-41,43`), so that after a crash only the others are fetched again.
    private static func version9(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE task ADD COLUMN piece_hashes TEXT")
        try db.execute(sql: "ALTER TABLE task ADD COLUMN verified_pieces TEXT")
        try db.execute(sql: "PRAGMA user_version = 9")
    }
}
