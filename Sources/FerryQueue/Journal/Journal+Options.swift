import GRDB

extension Journal {
    /// `setMaxDownloadLimit(_:for:)` changes a task's own download speed cap (bytes per
    /// second, `nil` for none). A running transfer keeps the cap it started with; the next
    /// attempt uses the new one. Throws `.journal(.taskNotFound)`.
    public func setMaxDownloadLimit(_ limit: Int64?, for id: TaskID) throws(QueueError) {
        let time = timestamp()
        let value = limit.flatMap { $0 > 0 ? $0 : nil }
        try write { db in
            try db.execute(sql: "UPDATE task SET max_download_limit = ?, updated_at = ? WHERE id = ?",
                           arguments: [value, time, id.rawValue])
            guard db.changesCount == 1 else { throw QueueError.journal(.taskNotFound(id)) }
            try JournalMeta.bumpRevision(db)
        }
    }
}

extension Journal {
    /// `setConnection(_:for:)` replaces a task's own trust, login, proxy, cookie and compression
    /// settings. A running transfer keeps those it started with; the next attempt uses the new
    /// ones. Throws `.journal(.taskNotFound)`.
    public func setConnection(_ settings: ConnectionSettings, for id: TaskID) throws(QueueError) {
        let time = timestamp()
        try write { db in
            try db.execute(sql: "UPDATE task SET connection = ?, updated_at = ? WHERE id = ?",
                           arguments: [settings.journalText, time, id.rawValue])
            guard db.changesCount == 1 else { throw QueueError.journal(.taskNotFound(id)) }
            try JournalMeta.bumpRevision(db)
        }
    }
}
