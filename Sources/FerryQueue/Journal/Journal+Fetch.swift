import GRDB

extension Journal {
    /// `task(_:)` returns the task with `id`, or `nil` if there is none.
    public func task(_ id: TaskID) throws(QueueError) -> TaskRecord? {
        try readStatement { db in
            // Cached: `aria2.tellStatus` reads one task per call.
            try TaskLoader.load(db, statement: db.cachedStatement(sql: "SELECT \(TaskLoader.columnList) FROM task WHERE id = ?"),
                                arguments: [id.rawValue], expected: 1).first
        }
    }

    /// `finalPath(of:)` returns the final path of the task with `id`: one cached query, for
    /// callers that need only that (a line per finished download); `nil` if the task has
    /// none or is gone.
    public func finalPath(of id: TaskID) throws(QueueError) -> String? {
        try readStatement { db in
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
        try readStatement { db in
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
