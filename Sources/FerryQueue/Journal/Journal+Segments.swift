import GRDB

extension Journal {
    /// `recordSegmentedCheckpoint(_:_:segments:)` stores, in one transaction, a split
    /// download's validators and total (`resume`) and every range's durable end, after the
    /// bytes were fsynced. An empty `segments` makes the task single-stream again (a fresh
    /// start records no range before its first bytes).
    public func recordSegmentedCheckpoint(_ id: TaskID, _ resume: ResumeRecord, segments: [Segment]) throws(QueueError) {
        let time = timestamp()
        try write { db in
            let update = try db.cachedStatement(sql: """
                UPDATE task SET resume_url = ?, resume_etag = ?, resume_last_modified = ?,
                    total_length = ?, durable_offset = ?, updated_at = ?
                WHERE id = ?
                """)
            update.setUncheckedArguments([
                resume.finalURL?.string, resume.etag, resume.lastModified,
                resume.totalLength, resume.durableOffset, time, id.rawValue,
            ])
            try update.execute()
            guard db.changesCount == 1 else { throw QueueError.journal(.taskNotFound(id)) }
            try db.execute(sql: "DELETE FROM segment WHERE task_id = ?", arguments: [id.rawValue])
            if segments.isEmpty {
                // Started over: no piece is checked any more.
                try db.execute(sql: "UPDATE task SET verified_pieces = NULL WHERE id = ? AND verified_pieces IS NOT NULL", arguments: [id.rawValue])
            }
            let insert = try db.cachedStatement(
                sql: #"INSERT INTO segment (task_id, start, "end", durable_offset) VALUES (?, ?, ?, ?)"#)
            for segment in segments {
                try insert.execute(arguments: [id.rawValue, segment.start, segment.end, segment.durableOffset])
            }
        }
    }
}

extension Journal {
    /// `setSegmentation(connections:minSplitSize:for:)` changes how many connections task
    /// `id` uses and its smallest split (`nil`: the defaults), from its next attempt on.
    public func setSegmentation(connections: Int?, minSplitSize: Int64?, for id: TaskID) throws(QueueError) {
        try write { db in
            try db.execute(sql: "UPDATE task SET connections = ?, min_split_size = ? WHERE id = ?",
                           arguments: [connections, minSplitSize, id.rawValue])
            guard db.changesCount == 1 else { throw QueueError.journal(.taskNotFound(id)) }
        }
    }
}
