import GRDB

extension Journal {
    /// `insert(_:)` adds tasks at the end of the queue, in order, in one transaction, and
    /// returns their ids in the same order.
    ///
    /// Either every task is stored or none is. Statements are prepared once per call, so
    /// large batches are cheap; for a huge batch file, call it with chunks of some thousands
    /// of tasks to bound memory. Throws `.journal(.invalidTask)` for a task without a URL.
    @discardableResult
    public func insert(_ tasks: [NewTask]) throws(QueueError) -> [TaskID] {
        if let index = tasks.firstIndex(where: { $0.spec.urls.isEmpty }) {
            throw .journal(.invalidTask("task \(index + 1) of the batch has no URL"))
        }
        guard !tasks.isEmpty else { return [] }
        let time = timestamp()
        return try write { db in
            var position = try JournalMeta.value(db, .highestPosition)
            let inserter = try TaskInserter(db)
            var ids: [TaskID] = []
            ids.reserveCapacity(tasks.count)
            for task in tasks {
                position += 1
                ids.append(try inserter.insert(task, position: position, time: time, db: db))
            }
            try JournalMeta.set(db, .highestPosition, to: position)
            try JournalMeta.bumpRevision(db)
            return ids
        }
    }

    /// `insert(_:)` adds one task at the end of the queue and returns its id.
    @discardableResult
    public func insert(_ task: NewTask) throws(QueueError) -> TaskID {
        try insert([task])[0]
    }
}

/// `TaskInserter` holds the prepared statements of one insert transaction.
private struct TaskInserter {
    let task: Statement
    let url: Statement
    let header: Statement
    let field: Statement
    let file: Statement

    init(_ db: Database) throws {
        task = try db.cachedStatement(sql: """
            INSERT INTO task (kind, state, priority, position, destination_dir, requested_name,
                overwrite, content_disposition, checksum_algorithm, checksum_hex,
                max_download_limit, retries, upload_method, upload_body_file,
                created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        url = try db.cachedStatement(sql: "INSERT INTO task_url (task_id, ordinal, url) VALUES (?, ?, ?)")
        header = try db.cachedStatement(
            sql: "INSERT INTO task_header (task_id, ordinal, name, value) VALUES (?, ?, ?, ?)")
        field = try db.cachedStatement(
            sql: "INSERT INTO upload_field (task_id, ordinal, name, value) VALUES (?, ?, ?, ?)")
        file = try db.cachedStatement(sql: """
            INSERT INTO upload_file (task_id, ordinal, field_name, path, filename, mime_type)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
    }

    func insert(_ new: NewTask, position: Int64, time: Int64, db: Database) throws -> TaskID {
        let spec = new.spec
        let state: TaskState = new.startsPaused ? .paused : .queued
        task.setUncheckedArguments([
            spec.kind.rawValue, state.rawValue, new.priority, position,
            spec.destinationDirectory, spec.requestedName, spec.overwrite, spec.useContentDisposition,
            spec.checksum?.algorithm.rawValue, spec.checksum?.hex,
            spec.options.maxDownloadLimit, spec.options.retries,
            spec.upload?.method, spec.upload?.bodyFile,
            time, time,
        ])
        try task.execute()
        let id = db.lastInsertedRowID
        for (ordinal, value) in spec.urls.enumerated() {
            url.setUncheckedArguments([id, ordinal, value.string])
            try url.execute()
        }
        for (ordinal, value) in spec.headers.enumerated() {
            header.setUncheckedArguments([id, ordinal, value.name, value.value])
            try header.execute()
        }
        if let upload = spec.upload {
            for (ordinal, value) in upload.fields.enumerated() {
                field.setUncheckedArguments([id, ordinal, value.name, value.value])
                try field.execute()
            }
            for (ordinal, value) in upload.files.enumerated() {
                file.setUncheckedArguments([id, ordinal, value.fieldName, value.path, value.filename, value.mimeType])
                try file.execute()
            }
        }
        return TaskID(id)
    }
}
