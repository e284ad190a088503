import FerryKit
import Foundation
import Glibc
import GRDB

/// `Journal` is the SQLite record of the transfer queue: tasks, their state, order and
/// resume records.
///
/// It runs on a GRDB `DatabasePool` in WAL mode, so readers never wait for the writer and
/// another process (`ferry add` in a second shell) can write while the engine runs; such
/// writes are noticed by polling `revision()`. Every method is synchronous and may be
/// called from any thread. Every method throws `QueueError` only; a full disk is
/// `.journal(.diskFull)`, a read-only file `.journal(.readOnly)`.
///
/// Durability: `synchronous = NORMAL` in WAL mode. A killed process loses nothing that was
/// committed; a power cut may roll back the last commits, never corrupt. That is safe for
/// checkpoints: a durable offset only grows, and the engine truncates the `.part` file to
/// the recorded offset before resuming.
public final class Journal: Sendable {
    /// `CorruptionPolicy` says what `open(at:onCorruption:now:)` does with an unreadable journal.
    public enum CorruptionPolicy: Sendable {
        /// `moveAside` renames it to `journal.sqlite.corrupt-<UTC time>` and starts empty.
        /// Only the engine-lock holder should use it.
        case moveAside
        /// `fail` throws `QueueError.journal(.unreadable)` and leaves the file alone; for
        /// processes that do not hold the engine lock.
        case fail
    }

    /// `schemaVersion` is the newest journal schema this build reads and writes.
    public static let schemaVersion = JournalSchema.version

    /// `busyTimeout` is how long a write waits for another process's write to finish.
    public static let busyTimeout: TimeInterval = 10

    /// `path` is the journal file.
    public let path: String
    let pool: DatabasePool
    let now: @Sendable () -> Date

    private init(path: String, pool: DatabasePool, now: @escaping @Sendable () -> Date) {
        self.path = path
        self.pool = pool
        self.now = now
    }

    /// `open(at:onCorruption:now:)` opens or creates the journal at `path` (mode 0600),
    /// checks it, and migrates it to `schemaVersion`.
    ///
    /// A file that is not SQLite, fails `PRAGMA quick_check`, is not a Ferry journal, or
    /// lacks a table of its schema is unreadable: with `.moveAside` (the default) it is
    /// renamed with its `-wal` and `-shm` files, a fresh journal is created, the tasks that
    /// can still be read from the old one are copied into it (`JournalSalvage`), and the
    /// result's `message` says so and how many. While a journal set aside is still in the
    /// directory, later openings mention it (`JournalOpening.setAside`). A journal of a newer schema throws
    /// `.journal(.newerSchema)` and is left untouched. `now` is the clock used for
    /// timestamps and the moved-aside name; the system clock by default.
    public static func open(
        at path: String,
        onCorruption policy: CorruptionPolicy = .moveAside,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(QueueError) -> JournalOpening {
        // One process at a time checks, migrates or sets aside: see `JournalOpeningGate`.
        try JournalOpeningGate.passing(path, timeout: .seconds(busyTimeout)) { () throws(QueueError) in
            try openGated(at: path, onCorruption: policy, now: now)
        }
    }

    /// `openGated(at:onCorruption:now:)` is `open(at:onCorruption:now:)` once no other
    /// process opens the journal.
    private static func openGated(
        at path: String, onCorruption policy: CorruptionPolicy, now: @escaping @Sendable () -> Date
    ) throws(QueueError) -> JournalOpening {
        let detail: String
        do {
            let journal = try openChecked(path: path, now: now)
            return JournalOpening(journal: journal, recovery: nil, setAside: setAside(path: path))
        } catch let error as QueueError {
            throw error
        } catch let error as Unreadable {
            detail = error.detail
        } catch {
            throw QueueError(converting: error, path: path)
        }
        guard policy == .moveAside else {
            throw .journal(.unreadable(path: path, detail: detail))
        }
        let aside = try moveAside(path: path, at: now())
        do {
            let journal = try openChecked(path: path, now: now)
            let salvage = try JournalSalvage.copy(from: aside, into: journal)
            let recovery = JournalRecovery(movedAsideTo: aside, detail: detail, recoveredTasks: salvage.recoveredTasks,
                                           pausedTasks: salvage.pausedTasks, lostSome: salvage.lostSome)
            return JournalOpening(journal: journal, recovery: recovery, setAside: setAside(path: path))
        } catch let error as QueueError {
            throw error
        } catch let error as Unreadable {
            throw .journal(.unreadable(path: path, detail: error.detail))
        } catch {
            throw QueueError(converting: error, path: path)
        }
    }

    /// `close()` copies the WAL into the main file when no other process is reading, then
    /// closes every SQLite connection; the journal cannot be used afterwards.
    public func close() throws(QueueError) {
        do {
            // PASSIVE never waits: another process's readers just leave frames in the WAL.
            _ = try? pool.writeWithoutTransaction { try $0.checkpoint(.passive) }
            try pool.close()
        } catch {
            throw QueueError(converting: error, path: path)
        }
    }

    // MARK: - Access

    /// `read(_:)` runs `body` on a reader connection, converting errors to `QueueError`.
    func read<T>(_ body: (Database) throws -> T) throws(QueueError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw QueueError(converting: error, path: path)
        }
    }

    /// `readStatement(_:)` runs `body`, which runs one statement, on a reader connection
    /// without a transaction: a single SELECT reads one snapshot of the WAL by itself, and
    /// the BEGIN and COMMIT around it cost a status call about a tenth of its time.
    func readStatement<T>(_ body: (Database) throws -> T) throws(QueueError) -> T {
        do {
            return try pool.unsafeRead(body)
        } catch {
            throw QueueError(converting: error, path: path)
        }
    }

    /// `write(_:)` runs `body` in an IMMEDIATE transaction, converting errors to `QueueError`.
    func write<T>(_ body: (Database) throws -> T) throws(QueueError) -> T {
        do {
            return try pool.write(body)
        } catch {
            throw QueueError(converting: error, path: path)
        }
    }

    /// `schedulingRead(_:)` is `read(_:)` for the scheduler's frequent reads, and
    /// `schedulingWrite(_:)` is `write(_:)` for its frequent writes: the same transactions,
    /// begun and committed with cached statements (GRDB prepares its `BEGIN` and `COMMIT` anew
    /// for every transaction, which costs more than the rest of a small one). The reads run
    /// on the writer's connection, between the scheduler's own writes: a reader connection's
    /// page cache is dropped after every write, and read again from the files each time.
    func schedulingRead<T>(_ body: (Database) throws -> T) throws(QueueError) -> T {
        do {
            return try pool.writeWithoutTransaction { db in try Journal.inTransaction(db, "BEGIN DEFERRED TRANSACTION", body) }
        } catch {
            throw QueueError(converting: error, path: path)
        }
    }

    /// See `schedulingRead(_:)`.
    func schedulingWrite<T>(_ body: (Database) throws -> T) throws(QueueError) -> T {
        do {
            return try pool.writeWithoutTransaction { db in try Journal.inTransaction(db, "BEGIN IMMEDIATE TRANSACTION", body) }
        } catch {
            throw QueueError(converting: error, path: path)
        }
    }

    /// `inTransaction(_:_:_:)` runs `body` between `begin` and a commit, or rolls back and
    /// rethrows `body`'s error (or the commit's).
    private static func inTransaction<T>(_ db: Database, _ begin: String, _ body: (Database) throws -> T) throws -> T {
        try db.cachedStatement(sql: begin).execute()
        do {
            let value = try body(db)
            try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
            return value
        } catch {
            if db.isInsideTransaction {
                try? db.rollback()
            }
            throw error
        }
    }

    /// `timestamp()` is `now()` in Unix milliseconds, the journal's time unit.
    func timestamp() -> Int64 {
        Journal.milliseconds(now())
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    // MARK: - Opening

    /// `Unreadable` is thrown inside `open` when the file must be moved aside.
    private struct Unreadable: Error {
        let detail: String
    }

    private static let sqliteHeader = Array("SQLite format 3\0".utf8)

    private static func openChecked(path: String, now: @escaping @Sendable () -> Date) throws -> Journal {
        try prepareFile(path: path)
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration())
        } catch let error as DatabaseError where isCorruption(error) {
            throw Unreadable(detail: error.message ?? "\(error.resultCode)")
        }
        do {
            try check(pool, path: path)
            try JournalSchema.migrator.migrate(pool)
            try pool.read { db in
                for table in JournalSchema.tables where try !db.tableExists(table) {
                    throw Unreadable(detail: "table \(table) is missing")
                }
            }
        } catch let error as DatabaseError where isCorruption(error) {
            try? pool.close()
            throw Unreadable(detail: error.message ?? "\(error.resultCode)")
        } catch {
            try? pool.close()
            throw error
        }
        return Journal(path: path, pool: pool, now: now)
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.label = "ferry.journal"
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return configuration
    }

    /// `prepareFile(path:)` creates the file with mode 0600 (tightens an existing one we
    /// own, and its `-wal`/`-shm`), and rejects a non-empty file without the SQLite header
    /// before SQLite sees it.
    private static func prepareFile(path: String) throws {
        let fd = SystemCall.open(path, O_RDWR | O_CREAT, 0o600)
        guard fd >= 0 else {
            throw QueueError(errno: errno, path: path)
        }
        defer { Glibc.close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw QueueError(errno: errno, path: path)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw Unreadable(detail: "not a regular file")
        }
        if status.st_uid == geteuid(), status.st_mode & 0o077 != 0, fchmod(fd, 0o600) != 0 {
            throw QueueError(errno: errno, path: path)
        }
        for suffix in ["-wal", "-shm"] {
            if let companion = SystemCall.fileStatus(path + suffix),
               companion.st_uid == geteuid(), companion.st_mode & 0o077 != 0 {
                _ = chmod(path + suffix, 0o600)
            }
        }
        guard status.st_size > 0 else { return }
        var header = [UInt8](repeating: 0, count: sqliteHeader.count)
        let count = header.withUnsafeMutableBytes { bytes in
            SystemCall.retrying { pread(fd, bytes.baseAddress, bytes.count, 0) }
        }
        guard count >= 0 else {
            throw QueueError(errno: errno, path: path)
        }
        guard count == sqliteHeader.count, header == sqliteHeader else {
            throw Unreadable(detail: "not an SQLite database")
        }
    }

    /// `check(_:path:)` runs `PRAGMA quick_check` and the identity and version checks.
    private static func check(_ pool: DatabasePool, path: String) throws {
        try pool.writeWithoutTransaction { db in
            let problems = try String.fetchAll(db, sql: "PRAGMA quick_check")
            guard problems == ["ok"] else {
                throw Unreadable(detail: problems.prefix(3).joined(separator: "; "))
            }
            let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            let objectCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") ?? 0
            if applicationID != JournalSchema.applicationID {
                guard objectCount == 0 else {
                    throw Unreadable(detail: "not a Ferry journal")
                }
                return
            }
            if try userVersion > JournalSchema.version || JournalSchema.migrator.hasBeenSuperseded(db) {
                throw QueueError.journal(.newerSchema(
                    path: path, found: userVersion, supported: JournalSchema.version))
            }
        }
    }

    private static func isCorruption(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// `moveAside(path:at:)` renames the journal and its `-wal`/`-shm` to
    /// `<path>.corrupt-<UTC time>` (plus `-N` if that exists) and returns the new path.
    private static func moveAside(path: String, at date: Date) throws(QueueError) -> String {
        let stem = "\(path).corrupt-\(utcStamp(date))"
        var aside = stem
        var counter = 1
        while SystemCall.exists(aside) {
            aside = "\(stem)-\(counter)"
            counter += 1
        }
        guard rename(path, aside) == 0 else {
            throw .journal(.cannotMoveAside(path: path, errno: errno))
        }
        for suffix in ["-wal", "-shm"] where SystemCall.exists(path + suffix) {
            guard rename(path + suffix, aside + suffix) == 0 else {
                throw .journal(.cannotMoveAside(path: path + suffix, errno: errno))
            }
        }
        return aside
    }

    /// `setAside(path:)` are the journals moved aside beside `path` (`<name>.corrupt-*`, not
    /// their `-wal` and `-shm`), sorted; empty when the directory cannot be read.
    static func setAside(path: String) -> [String] {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let prefix = (slash.map { String(path[path.index(after: $0)...]) } ?? path) + ".corrupt-"
        guard let stream = opendir(directory.isEmpty ? "/" : directory) else { return [] }
        defer { closedir(stream) }
        var found: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(prefix), !name.hasSuffix("-wal"), !name.hasSuffix("-shm") {
                found.append(directory + "/" + name)
            }
        }
        return found.sorted()
    }

    /// `utcStamp(_:)` formats `date` as `20250102T030405Z`.
    static func utcStamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))"
            + "T\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}
