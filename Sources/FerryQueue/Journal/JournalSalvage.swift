import Foundation
import GRDB
import GRDBSQLite

/// `JournalSalvage` copies what SQLite can still read from a damaged journal (one set aside
/// by `Journal.open`) into a new one: a few damaged pages cost the tasks stored on them, not
/// the whole queue (fault catalogue 49).
///
/// Each table is read in key order with errors tolerated: where a read fails (a damaged
/// page), the next readable key is searched for (`Scan`) and the reading goes on from there.
/// A task is kept when its row and at least one URL were read and it reads back as a valid
/// task (its URLs, headers and checksum pass the checks made when it was added). A kept task
/// whose other child rows (mirrors, headers, the form of an upload, segments) may not all
/// have been read is paused with a note in its error, unless it is done or cancelled: it must
/// not run without a header it had, and the user decides. Ids, queue places, states, resume
/// records and the journal's identity (the commit marks of its downloads) are kept, so a task
/// is the same task after the salvage.
///
/// SQLite keeps no checksum of its pages: bytes overwritten inside a value whose record
/// survived read back as another value of the same type, which no reader can tell.
///
/// The damaged file is opened read-only and never changed.
enum JournalSalvage {
    /// `Outcome` says what a salvage kept.
    struct Outcome: Sendable, Hashable {
        /// `recoveredTasks` is the number of tasks copied into the new journal.
        var recoveredTasks = 0
        /// `pausedTasks` is how many of them were paused because some of their child rows
        /// may be missing.
        var pausedTasks = 0
        /// `lostSome` is true when some rows could not be read or a task was left out.
        var lostSome = false
    }

    /// `incompleteNote` is the error a task paused by the salvage carries.
    static let incompleteNote = "recovered from a damaged journal: its mirrors, headers or form may be incomplete; "
        + "check it, then resume it or add it again"

    /// `copy(from:into:)` copies the readable tasks of the journal file at `damagedPath` into
    /// `journal` (new and empty), in one transaction. A file SQLite cannot open at all, or
    /// whose schema cannot be read, gives nothing and no error; only a failure to write
    /// `journal` throws.
    static func copy(from damagedPath: String, into journal: Journal) throws(QueueError) -> Outcome {
        // SQLite writes a WAL's index (`-shm`) and may replay the WAL even for a reader: the
        // salvage reads a copy of the file and its WAL, so what was set aside stays as it was.
        let copy = SourceCopy(of: damagedPath)
        defer { copy?.remove() }
        // Only a Ferry journal is read: another application's database may have a `task` table.
        guard let copy, let source = Source(path: copy.path),
              source.integer("PRAGMA application_id") == Int64(JournalSchema.applicationID) else {
            return Outcome(recoveredTasks: 0, pausedTasks: 0, lostSome: true)
        }
        return try journal.write { db in
            var copier = Copier(source: source, target: db)
            return try copier.run()
        }
    }
}

/// `SourceCopy` is a copy of a damaged journal and its `-wal` (not its `-shm`, which SQLite
/// makes again) in a private directory beside it, removed by `remove()`.
private struct SourceCopy {
    let directory: String
    var path: String { directory + "/journal.sqlite" }

    /// `init(of:)` copies; `nil` when it cannot (no room, for one).
    init?(of original: String) {
        let slash = original.lastIndex(of: "/")
        let parent = slash.map { String(original[..<$0]) } ?? "."
        var template = Array("\(parent.isEmpty ? "" : parent)/.ferry-salvage-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard let made else { return nil }
        directory = String(cString: made)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: original + suffix) {
            do {
                try FileManager.default.copyItem(atPath: original + suffix, toPath: path + suffix)
            } catch {
                remove()
                return nil
            }
        }
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// `Source` is a read-only SQLite connection to a damaged journal, through the C API: every
/// step's error is looked at, none ends the salvage.
private final class Source {
    let connection: OpaquePointer

    init?(path: String) {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            return nil
        }
        connection = handle
        // Checks each cell's bounds as it is read: a damaged page fails instead of yielding
        // values made of other bytes.
        sqlite3_exec(connection, "PRAGMA cell_size_check = ON", nil, nil, nil)
        sqlite3_exec(connection, "PRAGMA query_only = ON", nil, nil, nil)
    }

    deinit {
        sqlite3_close_v2(connection)
    }

    /// `prepare(_:)` compiles `sql`; `nil` when it cannot (a table or column is missing, or
    /// the schema is damaged).
    func prepare(_ sql: String) -> SourceStatement? {
        var handle: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &handle, nil) == SQLITE_OK, let handle else {
            sqlite3_finalize(handle)
            return nil
        }
        return SourceStatement(handle: handle)
    }

    /// `columns(of:)` are the column names of `table`, in order; empty when unreadable.
    func columns(of table: String) -> [String] {
        guard let statement = prepare("SELECT name FROM pragma_table_info('\(table)')") else { return [] }
        var names: [String] = []
        while statement.step() == SQLITE_ROW {
            if let text = sqlite3_column_text(statement.handle, 0) {
                names.append(String(cString: text))
            }
        }
        return names
    }

    /// `integer(_:)` is the first column of the first row of `sql`, `nil` when unreadable.
    func integer(_ sql: String) -> Int64? {
        guard let statement = prepare(sql), statement.step() == SQLITE_ROW,
              sqlite3_column_type(statement.handle, 0) == SQLITE_INTEGER else { return nil }
        return sqlite3_column_int64(statement.handle, 0)
    }
}

/// `SourceStatement` is a prepared statement on a `Source`, finalized when released.
private final class SourceStatement {
    let handle: OpaquePointer

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        sqlite3_finalize(handle)
    }

    func step() -> Int32 {
        sqlite3_step(handle)
    }

    /// `start(at:)` resets the statement and binds `key` to its only parameter.
    func start(at key: Int64) {
        sqlite3_reset(handle)
        sqlite3_bind_int64(handle, 1, key)
    }
}

/// `Copier` does one salvage inside the new journal's write transaction.
private struct Copier {
    let source: Source
    let target: Database
    /// `incomplete` are the task ids whose child rows may not all have been read, and whether
    /// only uploads are concerned (the form's tables).
    var incomplete: [(ids: ClosedRange<Int64>, uploadsOnly: Bool)] = []
    /// `copied` are the ids of the task rows copied.
    var copied = Set<Int64>()
    /// `highestID` is the highest task id met, read or passed over (not to be given again).
    var highestID: Int64 = 0
    var outcome = JournalSalvage.Outcome()

    init(source: Source, target: Database) {
        self.source = source
        self.target = target
    }

    /// `childTables` are the tables of a task's child rows, with the column after `task_id` in
    /// their primary key.
    static let childTables = ["task_url", "task_header", "upload_field", "upload_file", "segment"]
    /// `formTables` are the child tables only uploads have rows in.
    static let formTables: Set<String> = ["upload_field", "upload_file"]


    mutating func run() throws -> JournalSalvage.Outcome {
        try copyTasks()
        for table in Copier.childTables {
            try copyChildren(of: table)
        }
        try dropInvalidTasks()
        try pauseIncompleteTasks()
        try copyMeta()
        outcome.recoveredTasks = try Int.fetchOne(target, sql: "SELECT COUNT(*) FROM task") ?? 0
        if outcome.recoveredTasks < copied.count { outcome.lostSome = true }
        return outcome
    }

    /// `sharedColumns(of:)` are the columns `table` has in both journals (an older journal
    /// lacks the newer columns, which keep their defaults), in the new journal's order.
    func sharedColumns(of table: String) throws -> [String] {
        let old = Set(source.columns(of: table))
        return try target.columns(in: table).map(\.name).filter(old.contains)
    }

    /// `copyTasks()` copies every readable `task` row, by id.
    mutating func copyTasks() throws {
        let columns = try sharedColumns(of: "task")
        guard columns.contains("id"), let read = source.prepare("""
            SELECT \(columns.map(quoted).joined(separator: ", ")) FROM task NOT INDEXED WHERE id >= ?1 ORDER BY id
            """) else {
            outcome.lostSome = true
            return
        }
        let insert = try target.makeStatement(sql: insertSQL("task", columns))
        let idColumn = Int32(columns.firstIndex(of: "id") ?? 0)
        var scan = Scan(statement: read, uniqueKeys: true)
        while let id = scan.next(key: { sqlite3_column_int64($0, idColumn) }) {
            if id.failed {
                if id.skipped.upperBound < .max { highestID = max(highestID, id.skipped.upperBound) }
                outcome.lostSome = true
                continue
            }
            highestID = max(highestID, id.key)
            if try copyRow(from: read.handle, count: columns.count, with: insert) {
                copied.insert(id.key)
            } else {
                outcome.lostSome = true
            }
        }
    }

    /// `copyChildren(of:)` copies the readable rows of a child table whose task was copied;
    /// the tasks whose rows may be missing are marked damaged.
    mutating func copyChildren(of table: String) throws {
        let columns = try sharedColumns(of: table)
        guard columns.contains("task_id"), let read = source.prepare("""
            SELECT \(columns.map(quoted).joined(separator: ", ")) FROM \(table) WHERE task_id >= ?1 ORDER BY task_id
            """) else {
            // Without the table (or its rows), no task can be known complete.
            incomplete.append((Int64.min...Int64.max, Copier.formTables.contains(table)))
            return
        }
        let insert = try target.makeStatement(sql: insertSQL(table, columns))
        let uploadsOnly = Copier.formTables.contains(table)
        let taskColumn = Int32(columns.firstIndex(of: "task_id") ?? 0)
        var scan = Scan(statement: read, uniqueKeys: false)
        while let row = scan.next(key: { sqlite3_column_int64($0, taskColumn) }) {
            if row.failed {
                incomplete.append((row.skipped, uploadsOnly))
                continue
            }
            guard copied.contains(row.key) else { continue }
            if try !copyRow(from: read.handle, count: columns.count, with: insert) {
                incomplete.append((row.key...row.key, uploadsOnly))
            }
        }
    }

    /// `copyRow(from:count:with:)` binds the current row of `source` to `insert` and runs it;
    /// `false` when the new journal refuses the row (a constraint), which is skipped.
    func copyRow(from source: OpaquePointer, count: Int, with insert: Statement) throws -> Bool {
        let handle = insert.sqliteStatement
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        for column in 0..<Int32(count) {
            sqlite3_bind_value(handle, column + 1, sqlite3_column_value(source, column))
        }
        let code = sqlite3_step(handle)
        if code == SQLITE_DONE { return true }
        if code & 0xFF == SQLITE_CONSTRAINT || code & 0xFF == SQLITE_MISMATCH || code & 0xFF == SQLITE_TOOBIG {
            return false
        }
        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(target.sqliteConnection)))
    }

    /// `pauseIncompleteTasks()` pauses the tasks whose child rows may not all have been read
    /// (those done or cancelled are left as they are), with a note in their error.
    mutating func pauseIncompleteTasks() throws {
        let time = Journal.milliseconds(Date())
        var paused = Set<Int64>()
        for (ids, uploadsOnly) in incomplete {
            let rows = try Int64.fetchAll(target, sql: """
                SELECT id FROM task WHERE id BETWEEN ? AND ? AND state <> 'done' AND state <> 'cancelled'
                """ + (uploadsOnly ? " AND upload_method IS NOT NULL" : ""), arguments: [ids.lowerBound, ids.upperBound])
            paused.formUnion(rows)
        }
        let update = try target.makeStatement(sql: """
            UPDATE task SET state = CASE WHEN state = 'failed' THEN state ELSE 'paused' END, last_error = ?, updated_at = ?
            WHERE id = ?
            """)
        for id in paused {
            try update.execute(arguments: [JournalSalvage.incompleteNote, time, id])
        }
        outcome.pausedTasks = paused.count
    }

    /// `dropInvalidTasks()` removes the tasks that do not read back as valid tasks: a value
    /// changed by the damage (a state, a checksum, a URL, a header) must not be acted on.
    /// Tasks are loaded a page at a time, one by one only in a page that fails to load.
    func dropInvalidTasks() throws {
        var invalid: [Int64] = []
        var last: Int64 = .min
        while true {
            let ids = try Int64.fetchAll(target, sql: "SELECT id FROM task WHERE id > ? ORDER BY id LIMIT 500", arguments: [last])
            guard let first = ids.first, let tail = ids.last else { break }
            last = tail
            if let records = try? TaskLoader.load(target, sql: "SELECT \(TaskLoader.columnList) FROM task WHERE id BETWEEN ? AND ?", arguments: [first, tail]) {
                for record in records where !Copier.isValid(record) {
                    invalid.append(record.id.rawValue)
                }
                continue
            }
            for id in ids {
                let record = try? TaskLoader.load(target, sql: "SELECT \(TaskLoader.columnList) FROM task WHERE id = ?", arguments: [id]).first
                if record.map(Copier.isValid) != true {
                    invalid.append(id)
                }
            }
        }
        let delete = try target.makeStatement(sql: "DELETE FROM task WHERE id = ?")
        for id in invalid {
            try delete.execute(arguments: [id])
        }
    }

    /// `isValid(_:)` checks a loaded task as it was checked when it was added.
    static func isValid(_ record: TaskRecord) -> Bool {
        for url in record.spec.urls where (try? TransferURL(validating: url.string)) == nil {
            return false
        }
        for header in record.spec.headers where (try? HeaderField(name: header.name, value: header.value)) == nil {
            return false
        }
        return !record.spec.urls.isEmpty
    }

    /// `copyMeta()` keeps the old journal's identity and its bounds, moves the revision on
    /// past the old one, and keeps the ids of lost tasks from being given again.
    func copyMeta() throws {
        if let identity = source.integer("SELECT value FROM journal_meta WHERE key = 'identity'") {
            try target.execute(sql: "INSERT OR REPLACE INTO journal_meta (key, value) VALUES ('identity', ?)", arguments: [identity])
        }
        let revision = source.integer("SELECT value FROM journal_meta WHERE key = 'revision'") ?? 0
        try JournalMeta.set(target, .revision, to: max(revision, 0) + 1)
        let lowest = min(source.integer("SELECT value FROM journal_meta WHERE key = 'lowest_position'") ?? 0,
                         try Int64.fetchOne(target, sql: "SELECT MIN(position) FROM task") ?? 0)
        let highest = max(source.integer("SELECT value FROM journal_meta WHERE key = 'highest_position'") ?? 0,
                          try Int64.fetchOne(target, sql: "SELECT MAX(position) FROM task") ?? 0)
        try JournalMeta.set(target, .lowestPosition, to: lowest)
        try JournalMeta.set(target, .highestPosition, to: highest)
        let sequence = max(source.integer("SELECT seq FROM sqlite_sequence WHERE name = 'task'") ?? 0, highestID)
        if sequence > 0 {
            try target.execute(sql: "UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = 'task'", arguments: [sequence])
            if target.changesCount == 0 {
                try target.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('task', ?)", arguments: [sequence])
            }
        }
    }

    func insertSQL(_ table: String, _ columns: [String]) -> String {
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        return "INSERT INTO \(table) (\(columns.map(quoted).joined(separator: ", "))) VALUES (\(marks))"
    }

    func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// `Scan` steps a statement that reads a table in the order of an integer key from `?1` on,
/// and steps over damage: when a step fails, it searches for the smallest key from which the
/// reading starts again without an error (doubling the step, then halving the interval), and
/// reports the keys passed over as skipped.
private struct Scan {
    /// `Row` is a row read (`failed` false, `key` its key), or a damaged stretch (`failed`
    /// true, `skipped` the keys whose rows may be lost).
    struct Row {
        var key: Int64 = 0
        var failed = false
        var skipped: ClosedRange<Int64> = 0...0
    }

    let statement: SourceStatement
    /// `uniqueKeys` is true when no two rows share a key (a task's id); otherwise (a child
    /// table's `task_id`) the rows of the key read last may be cut short by the damage too.
    let uniqueKeys: Bool
    /// `resume` is where the reading goes on after a damaged stretch; `nil` at the end.
    private var resume: Int64? = .min
    private var reading = false
    private var lastKey: Int64?
    /// `failures` bounds the damaged stretches stepped over (a file of nothing but damage).
    private var failures = 0
    private static let failureLimit = 100_000

    init(statement: SourceStatement, uniqueKeys: Bool) {
        self.statement = statement
        self.uniqueKeys = uniqueKeys
    }

    /// `next(key:)` is the next row or damaged stretch, `nil` at the end; `key` reads the
    /// key of the current row.
    mutating func next(key: (OpaquePointer) -> Int64) -> Row? {
        if !reading {
            guard let start = resume else { return nil }
            statement.start(at: start)
            reading = true
        }
        let code = statement.step()
        if code == SQLITE_ROW {
            let value = key(statement.handle)
            lastKey = value
            return Row(key: value)
        }
        reading = false
        let startedAt = resume ?? .min
        if code == SQLITE_DONE {
            resume = nil
            return nil
        }
        // The rows after the last one read (or from where this reading started) may be lost.
        failures += 1
        var failing = startedAt
        if let lastKey {
            failing = max(startedAt, uniqueKeys && lastKey < .max ? lastKey + 1 : lastKey)
        }
        guard failures < Scan.failureLimit, let readable = firstReadableStart(after: failing) else {
            resume = nil
            return Row(failed: true, skipped: failing...Int64.max)
        }
        resume = readable
        lastKey = nil
        return Row(failed: true, skipped: failing...(readable - 1))
    }

    /// `firstReadableStart(after:)` is the smallest key above `failing` from which a reading
    /// starts without an error (it may find no row: the end), `nil` when none is found.
    private func firstReadableStart(after failing: Int64) -> Int64? {
        var low = failing
        var step: Int64 = 1
        var high: Int64
        while true {
            let (candidate, overflow) = low.addingReportingOverflow(step)
            if overflow { return readable(.max) ? .max : nil }
            if readable(candidate) {
                high = candidate
                break
            }
            low = candidate
            step = step.multipliedReportingOverflow(by: 2).overflow ? step : step * 2
        }
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if readable(middle) { high = middle } else { low = middle }
        }
        return high
    }

    /// `readable(_:)` tells whether a reading from `key` gets its first row (or the end).
    private func readable(_ key: Int64) -> Bool {
        statement.start(at: key)
        let code = statement.step()
        sqlite3_reset(statement.handle)
        return code == SQLITE_ROW || code == SQLITE_DONE
    }
}
