import GRDB
import Synchronization

extension Journal {
    /// `task(_:)` returns the task with `id`, or `nil` if there is none.
    public func task(_ id: TaskID) throws(QueueError) -> TaskRecord? {
        try read { db in
            // Cached: `aria2.tellStatus` reads one task per call.
            try TaskLoader.load(db, statement: db.cachedStatement(sql: "SELECT \(TaskLoader.columnList) FROM task WHERE id = ?"),
                                arguments: [id.rawValue], expected: 1).first
        }
    }

    /// `finalPath(of:)` returns the final path of the task with `id`: one cached query, for
    /// callers that need only that (a line per finished download); `nil` if the task has
    /// none or is gone.
    public func finalPath(of id: TaskID) throws(QueueError) -> String? {
        try read { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT final_path FROM task WHERE id = ?"),
                                arguments: [id.rawValue])
        }
    }

    /// `tasks(in:limit:offset:)` returns one page of the queue in queue order (priority
    /// descending, then position), optionally only tasks in `states`.
    ///
    /// Only the page's rows are read (an index gives the order), so a page costs the same
    /// with ten tasks or a million; `offset` still skips rows one by one, so very deep pages
    /// cost more. `states` is `nil` by default (every state).
    public func tasks(in states: Set<TaskState>? = nil, limit: Int, offset: Int = 0) throws(QueueError) -> [TaskRecord] {
        guard limit > 0 else { return [] }
        let (filter, arguments) = Journal.stateFilter(states)
        return try read { db in
            try TaskLoader.load(db, sql: """
                SELECT \(TaskLoader.columnList) FROM task \(filter)
                ORDER BY priority DESC, position
                LIMIT ? OFFSET ?
                """, arguments: arguments + [limit, max(0, offset)])
        }
    }

    /// `PageMarks` tell whether a page of the queue read earlier is still what
    /// `tasks(in:limit:offset:)` returns: the journal's revision, which every change but a
    /// progress checkpoint moves, and each task's id with the two columns a checkpoint
    /// changes (total length, durable offset), in order.
    public struct PageMarks: Sendable, Equatable {
        let revision: Int64
        let values: [Int64]
    }

    /// `tasks(in:limit:offset:unlessMarked:)` is `tasks(in:limit:offset:)` for a caller that
    /// keeps what it made of a page (a front end asks for the same page every second): one
    /// transaction reads the page's marks and, unless they equal `known`, the page itself;
    /// `records` is `nil` when they do. The marks cost a fraction of the page: three columns
    /// of each task, no child rows, no records made.
    public func tasks(
        in states: Set<TaskState>?, limit: Int, offset: Int, unlessMarked known: PageMarks?
    ) throws(QueueError) -> (marks: PageMarks, records: [TaskRecord]?) {
        let (filter, arguments) = Journal.stateFilter(states)
        return try read { db in
            var values: [Int64] = []
            values.reserveCapacity(3 * max(0, limit))
            try db.cachedStatement(sql: """
                SELECT id, total_length, durable_offset FROM task \(filter)
                ORDER BY priority DESC, position
                LIMIT ? OFFSET ?
                """).forEachRawRow(arguments: arguments + [max(0, limit), max(0, offset)]) { row in
                values.append(row.int64(0))
                values.append(row.optionalInt64(1) ?? -1)
                values.append(row.int64(2))
            }
            let marks = PageMarks(revision: try JournalMeta.value(db, .revision), values: values)
            guard marks != known else { return (marks, nil) }
            let records = try TaskLoader.load(db, sql: """
                SELECT \(TaskLoader.columnList) FROM task \(filter)
                ORDER BY priority DESC, position
                LIMIT ? OFFSET ?
                """, arguments: arguments + [max(0, limit), max(0, offset)])
            return (marks, records)
        }
    }

    /// `StateSummary` is how many tasks are in each state (every state is a key) and which
    /// tasks are running, as of one moment.
    public struct StateSummary: Sendable {
        public let counts: [TaskState: Int]
        public let running: [TaskID]
    }

    /// `stateSummary()` is the counts of `countsByState()` and the running tasks' ids (in no
    /// particular order), read together in one transaction for a client that polls them.
    ///
    /// The task table has no index by state but the one of queued tasks: queued tasks are
    /// counted on it, and only the other tasks' rows are read, in one pass in table order.
    /// With 100,000 queued tasks this took 10 ms, where `countsByState()` took 31 ms and
    /// walking the queue's index for the running ones 10 ms more.
    public func stateSummary() throws(QueueError) -> StateSummary {
        try read { db in
            var counts = Dictionary(uniqueKeysWithValues: TaskState.allCases.map { ($0, 0) })
            var running: [TaskID] = []
            counts[.queued] = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM task WHERE state = 'queued'")) ?? 0
            let states = Dictionary(uniqueKeysWithValues: TaskState.allCases.map { ($0.rawValue, $0) })
            try db.cachedStatement(sql: "SELECT state, id FROM task WHERE state != 'queued'").forEachRawRow(arguments: []) { row in
                guard let state = states[row.text(0)] else { return }
                counts[state, default: 0] += 1
                if state == .running { running.append(TaskID(row.int64(1))) }
            }
            return StateSummary(counts: counts, running: running)
        }
    }

    /// `countsByState()` counts the tasks in each state with one query; every state is a key.
    public func countsByState() throws(QueueError) -> [TaskState: Int] {
        try read { db in
            var counts = Dictionary(uniqueKeysWithValues: TaskState.allCases.map { ($0, 0) })
            for row in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS count FROM task GROUP BY state") {
                if let state = TaskState(rawValue: row["state"]) {
                    counts[state] = row["count"]
                }
            }
            return counts
        }
    }

    /// `nextRunnable(limit:excluding:)` returns up to `limit` queued tasks in queue order,
    /// skipping the ids in `excluding` (tasks the scheduler already started or holds).
    ///
    /// The scheduler calls this for every few slots that free: pages (`page`, cached
    /// statements) follow the last task seen, and excluded tasks are skipped here rather than
    /// listed in the SQL.
    public func nextRunnable(limit: Int, excluding: Set<TaskID> = []) throws(QueueError) -> [TaskRecord] {
        try nextRunnable(limit: limit, excluding: excluding, after: nil)
    }

    /// `nextRunnable(limit:excluding:after:)` is `nextRunnable(limit:excluding:)` from the task
    /// after `start` in queue order on (from the head when `nil`): a caller that read ahead
    /// goes on where it stopped instead of reading those tasks again.
    func nextRunnable(limit: Int, excluding: Set<TaskID>, after start: QueuePlace?,
                      among filter: RunnableFilter = .everyTask) throws(QueueError) -> [TaskRecord] {
        guard limit > 0 else { return [] }
        return try schedulingRead { db in
            var records: [TaskRecord] = []
            var last = start
            while records.count < limit {
                // Excluded tasks still queued (held or waiting for a retry) make a page short:
                // the next one continues after it.
                let page = max(limit - records.count, 16)
                let rows = try Journal.page(db, filter: filter.sql, arguments: [], after: last, limit: page)
                for record in rows where !excluding.contains(record.id) && records.count < limit {
                    records.append(record)
                }
                guard rows.count == page, let tail = rows.last else { break }
                last = QueuePlace(tail)
            }
            return records
        }
    }

    /// `RunnableFilter` is which queued tasks a scheduler may run: all of them, or only some
    /// (the tasks of one `ferry get`). The SQL is made once; it is the same for every read,
    /// so its statements are cached as the others are.
    struct RunnableFilter: Sendable {
        let sql: String

        static let everyTask = RunnableFilter(sql: "WHERE state = 'queued'")

        /// `init(only:)` admits the queued tasks among `ids` (every queued task when `nil`).
        init(only ids: Set<TaskID>?) {
            guard let ids else {
                self = .everyTask
                return
            }
            // Ids are integers: written into the SQL, they need no arguments.
            let list = ids.map { String($0.rawValue) }.sorted().joined(separator: ",")
            sql = "WHERE state = 'queued' AND id IN (\(list))"
        }

        private init(sql: String) {
            self.sql = sql
        }
    }

    /// `QueuePlace` is where a task stands in queue order: the key pages continue after.
    struct QueuePlace {
        let priority: Int
        let position: Int64

        init(_ record: TaskRecord) {
            priority = record.priority
            position = record.position
        }
    }

    /// `page(_:filter:arguments:after:limit:)` reads up to `limit` tasks matching `filter` (a
    /// `WHERE` clause or nothing) in queue order, after `last` when given: found by the last
    /// (priority, position) seen, not by an offset, so a deep page costs the same as the first.
    ///
    /// After `last`, a page is read in up to two index ranges: the rest of `last`'s priority
    /// (`priority = ? AND position > ?`), then the lower priorities (`priority < ?`). One
    /// condition with an `OR` of the two cannot use the index as a range: SQLite walked the
    /// index from the queue's head to the place for every page, so reading the whole queue
    /// grew with its square (55 s for `ferry list` at 1,000,000 tasks). Each statement is
    /// cached: a filter has three shapes.
    static func page(
        _ db: Database, filter: String, arguments: StatementArguments, after last: QueuePlace?, limit: Int
    ) throws -> [TaskRecord] {
        guard let last else {
            return try TaskLoader.load(db, statement: db.cachedStatement(sql: """
                SELECT \(TaskLoader.columnList) FROM task \(filter) ORDER BY priority DESC, position LIMIT ?
                """), arguments: arguments + [limit], expected: limit)
        }
        let and = filter.isEmpty ? "WHERE" : "\(filter) AND"
        var records = try TaskLoader.load(db, statement: db.cachedStatement(sql: """
            SELECT \(TaskLoader.columnList) FROM task \(and) priority = ? AND position > ? ORDER BY priority DESC, position LIMIT ?
            """), arguments: arguments + [last.priority, last.position, limit], expected: limit)
        guard records.count < limit else { return records }
        records += try TaskLoader.load(db, statement: db.cachedStatement(sql: """
            SELECT \(TaskLoader.columnList) FROM task \(and) priority < ? ORDER BY priority DESC, position LIMIT ?
            """), arguments: arguments + [last.priority, limit - records.count])
        return records
    }

    /// `recentlyDone(limit:)` returns up to `limit` downloads recorded `done`, the most
    /// recently finished first.
    public func recentlyDone(limit: Int) throws(QueueError) -> [TaskRecord] {
        guard limit > 0 else { return [] }
        return try read { db in
            try TaskLoader.load(db, sql: """
                SELECT \(TaskLoader.columnList) FROM task WHERE state = 'done' AND final_path IS NOT NULL AND upload_method IS NULL
                ORDER BY finished_at DESC LIMIT ?
                """, arguments: [limit])
        }
    }

    /// `segments(of:)` returns the byte ranges of a segmented download, by start offset;
    /// empty for a single-stream download.
    public func segments(of id: TaskID) throws(QueueError) -> [Segment] {
        try read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT start, "end", durable_offset FROM segment WHERE task_id = ? ORDER BY start
                """), arguments: [id.rawValue]).map { row in
                Segment(start: row["start"], end: row["end"], durableOffset: row["durable_offset"])
            }
        }
    }

    /// `stateFilter(_:)` is a `WHERE state IN (...)` clause and its arguments; empty for `nil`.
    static func stateFilter(_ states: Set<TaskState>?) -> (String, StatementArguments) {
        guard let states else { return ("", []) }
        let names = states.map(\.rawValue).sorted()
        guard !names.isEmpty else { return ("WHERE 0", []) }
        let marks = Array(repeating: "?", count: names.count).joined(separator: ",")
        return ("WHERE state IN (\(marks))", StatementArguments(names))
    }
}

/// `TaskLoader` turns `task` rows and their child rows into `TaskRecord`s.
enum TaskLoader {
    /// `chunkSize` bounds the tasks whose child rows are read together (and the ids of an
    /// `IN (...)` list elsewhere).
    static let chunkSize = 500

    /// `forEachChunk(of:_:)` calls `body` with each run of at most `chunkSize` of `ids`, in
    /// order, as the placeholders of an `IN (...)` list and their arguments.
    static func forEachChunk(of ids: [Int64], _ body: (_ marks: String, _ arguments: StatementArguments) throws -> Void) rethrows {
        var start = 0
        while start < ids.count {
            let chunk = ids[start..<min(start + chunkSize, ids.count)]
            try body(Array(repeating: "?", count: chunk.count).joined(separator: ","), StatementArguments(Array(chunk)))
            start += chunkSize
        }
    }

    /// `load(_:sql:arguments:)` runs a `SELECT` of `columnList` from `task` and loads the child
    /// rows of the tasks it returns, in two reads per chunk of tasks (four when the chunk
    /// holds an upload; see `Children`).
    static func load(_ db: Database, sql: String, arguments: StatementArguments) throws -> [TaskRecord] {
        try load(db, statement: db.makeStatement(sql: sql), arguments: arguments)
    }

    /// `load(_:statement:arguments:)` is `load(_:sql:arguments:)` for a prepared (often cached)
    /// statement. Rows are read by position straight from SQLite (`RawRow`), each task's
    /// child rows added once the chunk's ids are known.
    ///
    /// `expected` is how many rows the query may return (its `LIMIT`), room made for them at
    /// once: a page of records grown by doubling copied each record up to nine times and
    /// mapped fresh memory for each large buffer (a sixth of `ferry list`'s time at a million).
    static func load(_ db: Database, statement: Statement, arguments: StatementArguments, expected: Int = 0) throws -> [TaskRecord] {
        let columns = try Columns.of(statement.columnNames)
        var records: [TaskRecord] = []
        records.reserveCapacity(min(max(0, expected), chunkSize * 4))
        try statement.forEachRawRow(arguments: arguments) { row in
            records.append(try record(row, columns: columns))
        }
        var start = 0
        while start < records.count {
            let end = min(start + chunkSize, records.count)
            let chunk = records[start..<end]
            let children = try Children(db, ids: chunk.map(\.id.rawValue), uploads: chunk.contains { $0.spec.upload != nil })
            for index in start..<end {
                children.fill(&records[index])
            }
            start = end
        }
        return records
    }

    /// `columnList` names the `task` columns a record is made of; every load selects them
    /// (`SELECT *` also decoded the columns no record holds: a Metalink task's piece hashes
    /// can be long).
    static let columnList = """
        id, state, checksum_algorithm, checksum_hex, upload_method, upload_body_file, destination_dir, \
        requested_name, overwrite, content_disposition, max_download_limit, retries, resume_url, priority, \
        position, attempts, last_error, final_path, resume_etag, resume_last_modified, total_length, \
        durable_offset, created_at, updated_at, started_at, finished_at, reply, file_name, connections, \
        min_split_size, connection, saved_mtime_ns, saved_inode, upload_resumable
        """

    /// `Columns` are the positions of the `task` columns in the rows of one query, found once
    /// by name, so each row is read by position.
    private struct Columns: Sendable {
        /// The names and positions found last: every load reads `columnList`, so its names
        /// come in the same order each time, and comparing them costs a fraction of finding
        /// each one again (~60 k instructions per page read ahead).
        private static let last = Mutex<(names: [String], columns: Columns)?>(nil)

        /// `of(_:)` is `Columns(names)`, reused while the names are the same.
        static func of(_ names: [String]) throws -> Columns {
            if let known = last.withLock({ $0 }), known.names == names { return known.columns }
            let columns = try Columns(names)
            last.withLock { $0 = (names, columns) }
            return columns
        }

        let id, state, checksumAlgorithm, checksumHex, uploadMethod, uploadBodyFile, destinationDir,
            requestedName, overwrite, contentDisposition, maxDownloadLimit, retries, resumeURL, priority,
            position, attempts, lastError, finalPath, resumeETag, resumeLastModified, totalLength,
            durableOffset, createdAt, updatedAt, startedAt, finishedAt, reply, fileName, connections, minSplitSize, connection,
            savedModified, savedInode, uploadResumable: Int32

        init(_ names: [String]) throws {
            var positions: [String: Int32] = [:]
            for (position, name) in names.enumerated() {
                positions[name.lowercased()] = Int32(position)
            }
            func at(_ name: String) throws -> Int32 {
                guard let position = positions[name] else {
                    throw QueueError.journal(.invalidTask("the task table has no column \(name)"))
                }
                return position
            }
            id = try at("id")
            state = try at("state")
            checksumAlgorithm = try at("checksum_algorithm")
            checksumHex = try at("checksum_hex")
            uploadMethod = try at("upload_method")
            uploadBodyFile = try at("upload_body_file")
            destinationDir = try at("destination_dir")
            requestedName = try at("requested_name")
            overwrite = try at("overwrite")
            contentDisposition = try at("content_disposition")
            maxDownloadLimit = try at("max_download_limit")
            retries = try at("retries")
            resumeURL = try at("resume_url")
            priority = try at("priority")
            position = try at("position")
            attempts = try at("attempts")
            lastError = try at("last_error")
            finalPath = try at("final_path")
            resumeETag = try at("resume_etag")
            resumeLastModified = try at("resume_last_modified")
            totalLength = try at("total_length")
            durableOffset = try at("durable_offset")
            createdAt = try at("created_at")
            updatedAt = try at("updated_at")
            startedAt = try at("started_at")
            finishedAt = try at("finished_at")
            reply = try at("reply")
            fileName = try at("file_name")
            connections = try at("connections")
            minSplitSize = try at("min_split_size")
            connection = try at("connection")
            savedModified = try at("saved_mtime_ns")
            savedInode = try at("saved_inode")
            uploadResumable = try at("upload_resumable")
        }
    }

    /// `Children` are the child rows of a set of tasks, grouped by task id and in order.
    private struct Children {
        var urls: [Int64: [TransferURL]] = [:]
        var headers: [Int64: [HeaderField]] = [:]
        var fields: [Int64: [UploadSpec.Field]] = [:]
        var files: [Int64: [UploadSpec.File]] = [:]

        /// `uploads` tells whether any of the tasks is an upload: only then are the form's
        /// tables read.
        init(_ db: Database, ids: [Int64], uploads: Bool) throws {
            guard let low = ids.min(), let high = ids.max() else { return }
            let wanted = Set(ids)
            // A page of the queue holds tasks added together, so their ids are close: one range
            // scan reads their child rows (and skips the few of other tasks in between). Ids far
            // apart are read one seek each. Both statements are short, fixed texts (cached once
            // prepared); an `IN` list of the ids cost more to look up and run than the reads.
            let ranged = high - low < Int64(wanted.count) * 4
            func rows(_ table: ChildTable, _ body: (RawRow) throws -> Void) throws {
                if ranged {
                    try db.cachedStatement(sql: table.rangeQuery).forEachRawRow(binding: [low, high]) { row in
                        if wanted.contains(row.int64(0)) { try body(row) }
                    }
                } else {
                    let statement = try db.cachedStatement(sql: table.pointQuery)
                    for id in wanted {
                        try statement.forEachRawRow(binding: [id], body)
                    }
                }
            }
            // Read by position: the columns are the ones named in each query, in that order.
            try rows(.urls) { row in
                urls[row.int64(0), default: []].append(TransferURL(trusted: row.text(1)))
            }
            try rows(.headers) { row in
                headers[row.int64(0), default: []].append(HeaderField(trusted: row.text(1), value: row.text(2)))
            }
            guard uploads else { return }
            try rows(.fields) { row in
                fields[row.int64(0), default: []].append(UploadSpec.Field(name: row.text(1), value: row.text(2)))
            }
            try rows(.files) { row in
                files[row.int64(0), default: []].append(UploadSpec.File(
                    fieldName: row.text(1), path: row.text(2), filename: row.optionalText(3), mimeType: row.optionalText(4)))
            }
        }

        /// `fill(_:)` gives `record` its child rows.
        func fill(_ record: inout TaskRecord) {
            let id = record.id.rawValue
            record.spec.urls = urls[id] ?? []
            record.spec.headers = headers[id] ?? []
            if var upload = record.spec.upload {
                upload.fields = fields[id] ?? []
                upload.files = files[id] ?? []
                record.spec.upload = upload
            }
        }
    }

    /// `ChildTable` is a table of a task's child rows, with its two queries: the rows of the
    /// tasks whose ids lie in a range (`?1`, `?2`), and those of one task (`?1`), both
    /// returning `task_id` and then the columns named, in task and `ordinal` order.
    private struct ChildTable {
        let rangeQuery: String
        let pointQuery: String

        init(_ table: String, _ columns: String) {
            rangeQuery = "SELECT task_id, \(columns) FROM \(table) WHERE task_id BETWEEN ?1 AND ?2 ORDER BY task_id, ordinal"
            pointQuery = "SELECT task_id, \(columns) FROM \(table) WHERE task_id = ?1 ORDER BY ordinal"
        }

        static let urls = ChildTable("task_url", "url")
        static let headers = ChildTable("task_header", "name, value")
        static let fields = ChildTable("upload_field", "name, value")
        static let files = ChildTable("upload_file", "field_name, path, filename, mime_type")
    }

    /// `record(_:columns:)` reads one `task` row; its child rows come later (`Children.fill`).
    private static func record(_ row: RawRow, columns c: Columns) throws -> TaskRecord {
        let id = row.int64(c.id)
        guard let state = TaskState(rawValue: row.text(c.state)) else {
            throw QueueError.journal(.invalidTask("task \(id) has an unknown state"))
        }
        var checksum: Checksum?
        if let name = row.optionalText(c.checksumAlgorithm), let hex = row.optionalText(c.checksumHex),
           let algorithm = Checksum.Algorithm(name: name) {
            checksum = try Checksum(algorithm: algorithm, hex: hex)
        }
        var upload: UploadSpec?
        if let method = row.optionalText(c.uploadMethod) {
            upload = UploadSpec(method: method, fields: [], files: [], bodyFile: row.optionalText(c.uploadBodyFile))
            upload?.resumable = row.optionalText(c.uploadResumable)
        }
        let spec = TaskSpec(
            urls: [],
            headers: [],
            destinationDirectory: row.optionalText(c.destinationDir),
            requestedName: row.optionalText(c.requestedName),
            overwrite: row.bool(c.overwrite),
            checksum: checksum,
            useContentDisposition: row.bool(c.contentDisposition),
            options: TaskOptions(maxDownloadLimit: row.optionalInt64(c.maxDownloadLimit), retries: row.optionalInt(c.retries),
                                 connections: row.optionalInt(c.connections), minSplitSize: row.optionalInt64(c.minSplitSize)),
            upload: upload,
            connection: try row.optionalText(c.connection).map { text in
                do { return try ConnectionSettings(journalText: text) } catch {
                    throw QueueError.journal(.invalidTask("task \(id) has unreadable connection settings"))
                }
            } ?? ConnectionSettings())
        return TaskRecord(
            id: TaskID(id),
            spec: spec,
            state: state,
            priority: row.int(c.priority),
            position: row.int64(c.position),
            attempts: row.int(c.attempts),
            lastError: row.optionalText(c.lastError),
            finalPath: row.optionalText(c.finalPath),
            resume: ResumeRecord(
                finalURL: row.optionalText(c.resumeURL).map(TransferURL.init(trusted:)),
                etag: row.optionalText(c.resumeETag),
                lastModified: row.optionalText(c.resumeLastModified),
                totalLength: row.optionalInt64(c.totalLength),
                durableOffset: row.int64(c.durableOffset)),
            createdAt: Journal.date(milliseconds: row.int64(c.createdAt)),
            updatedAt: Journal.date(milliseconds: row.int64(c.updatedAt)),
            startedAt: row.optionalInt64(c.startedAt).map(Journal.date(milliseconds:)),
            finishedAt: row.optionalInt64(c.finishedAt).map(Journal.date(milliseconds:)),
            reply: row.optionalText(c.reply),
            fileName: row.optionalText(c.fileName),
            savedFile: row.optionalInt64(c.savedModified).flatMap { modified in
                row.optionalInt64(c.savedInode).map { inode in
                    SavedFile(modifiedNanoseconds: modified, inode: inode, size: row.optionalInt64(c.totalLength) ?? 0)
                }
            })
    }
}
