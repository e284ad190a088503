import GRDB

extension Journal {
    /// `setHeaders(_:for:)` replaces a task's request headers. A running transfer keeps those
    /// it started with; the next attempt sends the new ones. Throws `.journal(.taskNotFound)`,
    /// or `.input(.invalidHeader)` for more than `HeaderField.maximumCount` headers.
    public func setHeaders(_ headers: [HeaderField], for id: TaskID) throws(QueueError) {
        guard headers.count <= HeaderField.maximumCount else {
            throw .input(.invalidHeader(detail: "\(headers.count) headers; a task takes at most \(HeaderField.maximumCount)"))
        }
        let time = timestamp()
        try write { db in
            try db.execute(sql: "UPDATE task SET updated_at = ? WHERE id = ?", arguments: [time, id.rawValue])
            guard db.changesCount == 1 else { throw QueueError.journal(.taskNotFound(id)) }
            try db.execute(sql: "DELETE FROM task_header WHERE task_id = ?", arguments: [id.rawValue])
            for (ordinal, header) in headers.enumerated() {
                try db.execute(sql: "INSERT INTO task_header (task_id, ordinal, name, value) VALUES (?, ?, ?, ?)",
                               arguments: [id.rawValue, ordinal, header.name, header.value])
            }
            try JournalMeta.bumpRevision(db)
        }
    }

    /// `setDestination(directory:requestedName:for:)` moves a download that has written
    /// nothing yet to another directory or name (`nil`: the default directory, or the name
    /// the URL or server gives); the name a hand-over chose in the old place is dropped, to be
    /// chosen again in the new one. Returns false, changing nothing, when the task is running or
    /// done, or holds bytes (a `.part` the new place would not find). Throws
    /// `.journal(.taskNotFound)`.
    public func setDestination(directory: String?, requestedName: String?, for id: TaskID) throws(QueueError) -> Bool {
        let time = timestamp()
        return try write { db in
            try db.execute(sql: """
                UPDATE task SET destination_dir = ?, requested_name = ?, file_name = NULL, updated_at = ?
                WHERE id = ? AND kind = 'download' AND state IN ('queued', 'paused', 'failed')
                    AND durable_offset = 0 AND final_path IS NULL
                """, arguments: [directory, requestedName, time, id.rawValue])
            guard db.changesCount == 1 else {
                guard try Int.fetchOne(db, sql: "SELECT 1 FROM task WHERE id = ?", arguments: [id.rawValue]) != nil else {
                    throw QueueError.journal(.taskNotFound(id))
                }
                return false
            }
            try JournalMeta.bumpRevision(db)
            return true
        }
    }

    /// `setRetryAndOverwrite(retries:overwrite:for:)` changes how many times a task is retried
    /// (`nil`: the engine's default) and whether it may replace an existing file, from its next
    /// attempt on. Throws `.journal(.taskNotFound)`.
    public func setRetryAndOverwrite(retries: Int?, overwrite: Bool, for id: TaskID) throws(QueueError) {
        let time = timestamp()
        try write { db in
            try db.execute(sql: "UPDATE task SET retries = ?, overwrite = ?, updated_at = ? WHERE id = ?",
                           arguments: [retries, overwrite, time, id.rawValue])
            guard db.changesCount == 1 else { throw QueueError.journal(.taskNotFound(id)) }
            try JournalMeta.bumpRevision(db)
        }
    }
}

extension Journal {
    /// `retarget(_:to:)` gives a download new URLs (the first is tried first; the others are
    /// its mirrors) and keeps its bytes and their validators: its next attempt resumes from
    /// the new URL with `If-Range`, so the bytes are kept only when the new source serves the
    /// same representation (the same strong ETag, or the same Last-Modified, and the same
    /// length), and it starts over otherwise. The URL that served the bytes is forgotten.
    /// Returns false, changing nothing, for an upload, a running task or a finished one.
    /// Throws `.journal(.taskNotFound)`.
    public func retarget(_ id: TaskID, to urls: [TransferURL]) throws(QueueError) -> Bool {
        guard !urls.isEmpty else { throw .input(.invalidURL("", detail: "give at least one URL")) }
        let time = timestamp()
        return try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT state, kind FROM task WHERE id = ?", arguments: [id.rawValue]) else {
                throw QueueError.journal(.taskNotFound(id))
            }
            let state: String = row["state"]
            let kind: String = row["kind"]
            guard kind == "download", state != "running", state != "done" else { return false }
            try db.execute(sql: "DELETE FROM task_url WHERE task_id = ?", arguments: [id.rawValue])
            for (ordinal, url) in urls.enumerated() {
                try db.execute(sql: "INSERT INTO task_url (task_id, ordinal, url) VALUES (?, ?, ?)",
                               arguments: [id.rawValue, ordinal, url.string])
            }
            try db.execute(sql: "UPDATE task SET resume_url = NULL, updated_at = ? WHERE id = ?", arguments: [time, id.rawValue])
            try JournalMeta.bumpRevision(db)
            return true
        }
    }
}
