import GRDB

extension Journal {
    /// `revision()` is a counter that grows with every change to the queue (insert, state,
    /// order, priority, removal, attempts), from this process or another one.
    ///
    /// Progress checkpoints do not change it. Polling it is one indexed read of one row, so
    /// the engine can call it every second to notice `ferry add` from another shell.
    public func revision() throws(QueueError) -> Int64 {
        try readStatement { db in try JournalMeta.value(db, .revision) }
    }

    /// `orderRevision()` grows with every manual change of the queue order (`move`,
    /// `setPriority`); 0 before the first.
    public func orderRevision() throws(QueueError) -> Int64 {
        try readStatement { db in try JournalMeta.value(db, .orderRevision) }
    }
}

extension Journal {
    /// `tasks(ids:)` returns the tasks with the given ids that exist, in id order, reading
    /// `TaskLoader.chunkSize` at a time.
    public func tasks(ids: some Collection<TaskID>) throws(QueueError) -> [TaskRecord] {
        // A closure, not `\.rawValue`: in this generic function the key path was made anew
        // at run time on every call (a tenth of `tellActive`).
        let values = ids.map { $0.rawValue }.sorted()
        guard !values.isEmpty else { return [] }
        return try read { db in
            var records: [TaskRecord] = []
            records.reserveCapacity(values.count)
            try TaskLoader.forEachChunk(of: values) { marks, arguments, count in
                records += try TaskLoader.load(db, statement: db.cachedStatement(sql: """
                    SELECT \(TaskLoader.columnList) FROM task WHERE id IN (\(marks)) ORDER BY id
                    """), arguments: arguments, expected: count)
            }
            return records
        }
    }
}

extension Journal {
    /// `forEachSummary(labels:_:)` calls `body` with a `TaskSummary` of every task, in id
    /// order, in one read: a view counts, orders and filters the whole queue from these and
    /// loads only the tasks it shows. With `labels` each summary also carries what the task's
    /// name is made of (the first URL, and an upload's files), at the cost of one more indexed
    /// lookup per task.
    public func forEachSummary(labels: Bool, _ body: (TaskSummary) -> Void) throws(QueueError) {
        let columns = "id, kind, state, priority, position, total_length, durable_offset"
        let sql = labels
            ? """
              SELECT \(columns), destination_dir, requested_name, final_path, upload_body_file,
                  (SELECT url FROM task_url WHERE task_id = task.id ORDER BY ordinal LIMIT 1), file_name
              FROM task ORDER BY id
              """
            : "SELECT \(columns) FROM task ORDER BY id"
        try read { db in
            let files = labels ? try db.cachedStatement(sql: """
                SELECT path, filename FROM upload_file WHERE task_id = ? ORDER BY ordinal
                """) : nil
            try db.cachedStatement(sql: sql).forEachRawRow(arguments: []) { row in
                let id = row.int64(0)
                guard let kind = TransferKind(rawValue: row.text(1)), let state = TaskState(rawValue: row.text(2)) else {
                    throw QueueError.journal(.invalidTask("task \(id) has an unknown kind or state"))
                }
                var summary = TaskSummary(
                    id: TaskID(id), kind: kind, state: state, priority: row.int(3), position: row.int64(4),
                    totalLength: row.optionalInt64(5), durableOffset: row.int64(6))
                if let files {
                    var label = TaskLabel(
                        destinationDirectory: row.optionalText(7), requestedName: row.optionalText(8),
                        finalPath: row.optionalText(9), fileName: row.optionalText(12),
                        firstURL: row.optionalText(11).map(TransferURL.init(trusted:)),
                        uploadBodyFile: row.optionalText(10))
                    if kind == .upload {
                        try files.forEachRawRow(binding: [id]) { file in
                            label.uploadPaths.append(file.text(0))
                            label.uploadNames.append(file.optionalText(1) ?? file.text(0))
                        }
                    }
                    summary.label = label
                }
                body(summary)
            }
        }
    }
}
