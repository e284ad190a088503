import GRDB

extension Journal {
    /// `insert(_:)` adds tasks at the end of the queue, in order, in one transaction, and
    /// returns their ids in the same order.
    ///
    /// Either every task is stored or none is. Statements are prepared once per call, so
    /// large batches are cheap; for a huge batch file, call it with chunks of some thousands
    /// of tasks to bound memory. Throws `.journal(.invalidTask)` for a task without a URL, and
    /// `.input(.invalidHeader)` for one with more than `HeaderField.maximumCount` headers.
    @discardableResult
    public func insert(_ tasks: [NewTask]) throws(QueueError) -> [TaskID] {
        if let index = tasks.firstIndex(where: { $0.spec.urls.isEmpty }) {
            throw .journal(.invalidTask("task \(index + 1) of the batch has no URL"))
        }
        for task in tasks { try Journal.checkHeaderCount(task) }
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

    /// `insert(_:atPlaceOf:among:)` adds one task and puts it, in the same transaction, at the
    /// place of the task that is `offset` (0 the first) among the tasks in `states`, in queue
    /// order, as `move(_:toPlace:)` puts a task there (the tasks between pass their places
    /// along); at the end of the queue when there is no such task. Returns its id.
    ///
    /// One transaction: no reader (a scheduler polling the journal) sees the task at the end
    /// first, and the task is not stored when it cannot be placed.
    @discardableResult
    public func insert(_ task: NewTask, atPlaceOf offset: Int, among states: Set<TaskState>) throws(QueueError) -> TaskID {
        guard !task.spec.urls.isEmpty else { throw .journal(.invalidTask("task 1 of the batch has no URL")) }
        try Journal.checkHeaderCount(task)
        let time = timestamp()
        return try write { db in
            let position = try JournalMeta.value(db, .highestPosition) + 1
            let id = try TaskInserter(db).insert(task, position: position, time: time, db: db)
            try JournalMeta.set(db, .highestPosition, to: position)
            let (filter, arguments) = Journal.stateFilter(states)
            let target = try Row.fetchOne(db, sql: """
                SELECT id, priority, position FROM task \(filter) ORDER BY priority DESC, position LIMIT 1 OFFSET ?
                """, arguments: arguments + [max(0, offset)])
            if let target, target["id"] != id.rawValue {
                try Journal.passPlaces(db, from: (id.rawValue, task.priority, position),
                                       to: (target["id"], target["priority"], target["position"]), time: time)
                try JournalMeta.bumpOrderRevision(db)
            }
            try JournalMeta.bumpRevision(db)
            return id
        }
    }

    /// `passPlaces(_:from:to:time:)` moves the task at `from` to the place of the task at
    /// `to`: the tasks from that place to the moved one's each take the next one's place
    /// towards it, so the set of (priority, position) pairs stays the same.
    private static func passPlaces(
        _ db: Database, from mover: (id: Int64, priority: Int, position: Int64),
        to target: (id: Int64, priority: Int, position: Int64), time: Int64
    ) throws {
        let movesUp = (mover.priority, -mover.position) < (target.priority, -target.position)
        let (first, last) = movesUp ? (target, mover) : (mover, target)
        // Every task from `first` to `last` in queue order (priority down, position up), both included.
        let rows = try Row.fetchAll(db, sql: """
            SELECT id, priority, position FROM task
            WHERE (priority < ?1 OR (priority = ?1 AND position >= ?2))
              AND (priority > ?3 OR (priority = ?3 AND position <= ?4))
            ORDER BY priority DESC, position
            """, arguments: [first.priority, first.position, last.priority, last.position])
        var order = rows.map { row -> Int64 in row["id"] }
        if movesUp {
            order.removeLast()
            order.insert(mover.id, at: 0)
        } else {
            order.removeFirst()
            order.append(mover.id)
        }
        let update = try db.cachedStatement(sql: "UPDATE task SET priority = ?, position = ?, updated_at = ? WHERE id = ?")
        for (slot, id) in zip(rows, order) where slot["id"] != id {
            try update.execute(arguments: [slot["priority"] as Int, slot["position"] as Int64, time, id])
        }
    }

    /// `checkHeaderCount(_:)` refuses a task with more than `HeaderField.maximumCount` headers.
    static func checkHeaderCount(_ task: NewTask) throws(QueueError) {
        guard task.spec.headers.count <= HeaderField.maximumCount else {
            throw .input(.invalidHeader(detail: "\(task.spec.headers.count) headers; a task takes at most \(HeaderField.maximumCount)"))
        }
    }
}

/// `TaskInserter` holds the prepared statements of one insert transaction.
private struct TaskInserter {
    let task: BulkStatement
    let url: BulkStatement
    let header: BulkStatement
    let field: BulkStatement
    let file: BulkStatement

    init(_ db: Database) throws {
        task = try BulkStatement(db, sql: """
            INSERT INTO task (kind, state, priority, position, destination_dir, requested_name,
                overwrite, content_disposition, checksum_algorithm, checksum_hex,
                max_download_limit, retries, upload_method, upload_body_file,
                created_at, updated_at, connections, min_split_size, connection, upload_resumable, piece_hashes)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?15, ?16, ?17, ?18, ?19, ?20)
            """)
        url = try BulkStatement(db, sql: "INSERT INTO task_url (task_id, ordinal, url) VALUES (?, ?, ?)")
        header = try BulkStatement(db, sql: "INSERT INTO task_header (task_id, ordinal, name, value) VALUES (?, ?, ?, ?)")
        field = try BulkStatement(db, sql: "INSERT INTO upload_field (task_id, ordinal, name, value) VALUES (?, ?, ?, ?)")
        file = try BulkStatement(db, sql: """
            INSERT INTO upload_file (task_id, ordinal, field_name, path, filename, mime_type)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
    }

    func insert(_ new: NewTask, position: Int64, time: Int64, db: Database) throws -> TaskID {
        let spec = new.spec
        let state: TaskState = new.startsPaused ? .paused : .queued
        task.bind(1, spec.kind.rawValue)
        task.bind(2, state.rawValue)
        task.bind(3, new.priority)
        task.bind(4, position)
        task.bind(5, spec.destinationDirectory)
        task.bind(6, spec.requestedName)
        task.bind(7, spec.overwrite)
        task.bind(8, spec.useContentDisposition)
        task.bind(9, spec.checksum?.algorithm.rawValue)
        task.bind(10, spec.checksum?.hex)
        task.bind(11, spec.options.maxDownloadLimit)
        task.bind(12, spec.options.retries)
        task.bind(13, spec.upload?.method)
        task.bind(14, spec.upload?.bodyFile)
        task.bind(15, time)
        task.bind(16, spec.options.connections)
        task.bind(17, spec.options.minSplitSize)
        task.bind(18, spec.connection.journalText)
        task.bind(19, spec.upload?.resumable)
        task.bind(20, new.pieceHashes?.encoded)
        try task.run()
        let id = db.lastInsertedRowID
        for (ordinal, value) in spec.urls.enumerated() {
            url.bind(1, id)
            url.bind(2, ordinal)
            url.bind(3, value.string)
            try url.run()
        }
        for (ordinal, value) in spec.headers.enumerated() {
            header.bind(1, id)
            header.bind(2, ordinal)
            header.bind(3, value.name)
            header.bind(4, value.value)
            try header.run()
        }
        if let upload = spec.upload {
            for (ordinal, value) in upload.fields.enumerated() {
                field.bind(1, id)
                field.bind(2, ordinal)
                field.bind(3, value.name)
                field.bind(4, value.value)
                try field.run()
            }
            for (ordinal, value) in upload.files.enumerated() {
                file.bind(1, id)
                file.bind(2, ordinal)
                file.bind(3, value.fieldName)
                file.bind(4, value.path)
                file.bind(5, value.filename)
                file.bind(6, value.mimeType)
                try file.run()
            }
        }
        return TaskID(id)
    }
}
