import GRDB
import Synchronization

/// `TaskLoader` turns `task` rows and their child rows into `TaskRecord`s.
enum TaskLoader {
    /// `chunkSize` bounds the tasks whose child rows are read together (and the ids of an
    /// `IN (...)` list elsewhere).
    static let chunkSize = 500

    /// `forEachChunk(of:_:)` calls `body` with each run of at most `chunkSize` of `ids`, in
    /// order, as the placeholders of an `IN (...)` list and their arguments, and how many ids
    /// the run holds. The list is padded with its last id to a power of two (a repeated id
    /// matches nothing more): a statement has a few texts, each prepared once and cached
    /// (preparing 34 columns for each list of running tasks cost a fifth of `tellActive`).
    static func forEachChunk(
        of ids: [Int64], _ body: (_ marks: String, _ arguments: StatementArguments, _ count: Int) throws -> Void
    ) rethrows {
        var start = 0
        while start < ids.count {
            let chunk = Array(ids[start..<min(start + chunkSize, ids.count)])
            var width = 1
            while width < chunk.count { width *= 2 }
            let padded = chunk + Array(repeating: chunk[chunk.count - 1], count: width - chunk.count)
            try body(Array(repeating: "?", count: width).joined(separator: ","), StatementArguments(padded), chunk.count)
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
