import GRDB

extension Journal {
    /// `revision()` is a counter that grows with every change to the queue (insert, state,
    /// order, priority, removal, attempts), from this process or another one.
    ///
    /// Progress checkpoints do not change it. Polling it is one indexed read of one row, so
    /// the engine can call it every second to notice `ferry add` from another shell.
    public func revision() throws(QueueError) -> Int64 {
        try read { db in try JournalMeta.value(db, .revision) }
    }
}

extension Journal {
    /// `forEachUpdateStamp(_:)` calls `body` with every task's id and the time of its last
    /// change (`updated_at`, Unix milliseconds), in id order: a view that keeps a row per task
    /// finds what changed or went away without loading the tasks (two integers per row).
    public func forEachUpdateStamp(_ body: (TaskID, Int64) -> Void) throws(QueueError) {
        try read { db in
            let statement = try db.cachedStatement(sql: "SELECT id, updated_at FROM task ORDER BY id")
            let cursor = try Row.fetchCursor(statement)
            while let row = try cursor.next() {
                body(TaskID(row[0] as Int64), row[1] as Int64)
            }
        }
    }

    /// `tasks(ids:)` returns the tasks with the given ids that exist, in id order, reading
    /// `TaskLoader.chunkSize` at a time.
    public func tasks(ids: some Collection<TaskID>) throws(QueueError) -> [TaskRecord] {
        let values = ids.map(\.rawValue).sorted()
        guard !values.isEmpty else { return [] }
        return try read { db in
            var records: [TaskRecord] = []
            records.reserveCapacity(values.count)
            try TaskLoader.forEachChunk(of: values) { marks, arguments in
                records += try TaskLoader.load(db, sql: "SELECT * FROM task WHERE id IN (\(marks)) ORDER BY id", arguments: arguments)
            }
            return records
        }
    }
}
