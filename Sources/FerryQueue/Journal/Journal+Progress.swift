import GRDB

extension Journal {
    /// `recordCheckpoint(_:_:)` stores a download's resume record after its bytes up to
    /// `resume.durableOffset` were fsynced.
    ///
    /// Cheap enough to call every second per running task: one prepared `UPDATE` by primary
    /// key, and it does not bump `revision()` (progress is not a queue change).
    public func recordCheckpoint(_ id: TaskID, _ resume: ResumeRecord) throws(QueueError) {
        let time = timestamp()
        try write { db in
            let statement = try db.cachedStatement(sql: """
                UPDATE task SET resume_url = ?, resume_etag = ?, resume_last_modified = ?,
                    total_length = ?, durable_offset = ?, updated_at = ?
                WHERE id = ?
                """)
            statement.setUncheckedArguments([
                resume.finalURL?.string, resume.etag, resume.lastModified,
                resume.totalLength, resume.durableOffset, time, id.rawValue,
            ])
            try statement.execute()
            guard db.changesCount == 1 else {
                throw QueueError.journal(.taskNotFound(id))
            }
        }
    }

    /// `replaceSegments(_:with:)` sets the byte ranges of a segmented download (an empty
    /// array makes it single-stream again).
    public func replaceSegments(_ id: TaskID, with segments: [Segment]) throws(QueueError) {
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM task WHERE id = ?", arguments: [id.rawValue]) != nil else {
                throw QueueError.journal(.taskNotFound(id))
            }
            try db.execute(sql: "DELETE FROM segment WHERE task_id = ?", arguments: [id.rawValue])
            let statement = try db.cachedStatement(
                sql: #"INSERT INTO segment (task_id, start, "end", durable_offset) VALUES (?, ?, ?, ?)"#)
            for segment in segments {
                try statement.execute(arguments: [id.rawValue, segment.start, segment.end, segment.durableOffset])
            }
        }
    }

    /// `recordSegmentCheckpoint(_:start:durableOffset:)` stores the durable offset of the
    /// segment of task `id` that begins at `start`; as cheap as `recordCheckpoint(_:_:)`.
    public func recordSegmentCheckpoint(_ id: TaskID, start: Int64, durableOffset: Int64) throws(QueueError) {
        try write { db in
            let statement = try db.cachedStatement(
                sql: "UPDATE segment SET durable_offset = ? WHERE task_id = ? AND start = ?")
            try statement.execute(arguments: [durableOffset, id.rawValue, start])
            guard db.changesCount == 1 else {
                throw QueueError.journal(.taskNotFound(id))
            }
        }
    }

    /// `recordAttempt(_:error:)` counts one more transfer attempt and stores its error
    /// message (`nil` clears it). The message must already be masked.
    public func recordAttempt(_ id: TaskID, error message: String?) throws(QueueError) {
        try update(id, sql: "attempts = attempts + 1, last_error = ?", [message])
    }

    /// `recordFinalPath(_:_:)` stores the file a download was resolved to.
    public func recordFinalPath(_ id: TaskID, _ path: String) throws(QueueError) {
        try update(id, sql: "final_path = ?", [path])
    }

    /// `recordLength(_:_:)` stores the size of a finished download as its total and durable
    /// length (the validators are kept), so that it is listed with its size when no
    /// checkpoint recorded one (a download shorter than the checkpoint interval).
    public func recordLength(_ id: TaskID, _ length: Int64) throws(QueueError) {
        try update(id, sql: "total_length = ?, durable_offset = ?", [max(0, length), max(0, length)])
    }

    /// `update(_:sql:_:)` sets columns of one task and bumps the revision.
    func update(_ id: TaskID, sql assignments: String, _ arguments: StatementArguments) throws(QueueError) {
        let time = timestamp()
        try write { db in
            try db.execute(
                sql: "UPDATE task SET \(assignments), updated_at = ? WHERE id = ?",
                arguments: arguments + [time, id.rawValue])
            guard db.changesCount == 1 else {
                throw QueueError.journal(.taskNotFound(id))
            }
            try JournalMeta.bumpRevision(db)
        }
    }
}
