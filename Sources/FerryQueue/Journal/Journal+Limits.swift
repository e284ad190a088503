import FerryKit
import GRDB

/// The engine's speed budgets, kept in `journal_meta` (`overall_download_limit`,
/// `overall_upload_limit`, bytes per second; absent or 0 is no limit), so that every engine
/// of the state directory runs under the last one set.
extension Journal {
    private static let downloadKey = "overall_download_limit"
    private static let uploadKey = "overall_upload_limit"

    /// `overallLimits()` is the budgets last recorded (none before the first).
    public func overallLimits() throws(QueueError) -> OverallLimits {
        try read { db in
            let statement = try db.cachedStatement(sql: "SELECT value FROM journal_meta WHERE key = ?")
            let download = try Int64.fetchOne(statement, arguments: [Self.downloadKey]) ?? 0
            let upload = try Int64.fetchOne(statement, arguments: [Self.uploadKey]) ?? 0
            return OverallLimits(download: download > 0 ? download : nil, upload: upload > 0 ? upload : nil)
        }
    }

    /// `setOverallLimits(download:upload:)` records new budgets (`nil` keeps one, `.some(nil)`
    /// removes it); a running engine applies them when it notices the change (at once through
    /// the daemon, within its poll interval otherwise).
    public func setOverallLimits(download: Int64?? = nil, upload: Int64?? = nil) throws(QueueError) {
        try write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT INTO journal_meta (key, value) VALUES (?, ?)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """)
            if let download { try statement.execute(arguments: [Self.downloadKey, max(0, download ?? 0)]) }
            if let upload { try statement.execute(arguments: [Self.uploadKey, max(0, upload ?? 0)]) }
            try JournalMeta.bumpRevision(db)
        }
    }

    /// `maxDownloadLimits(of:)` is the own download cap of each of `ids` that exists (`nil`: none).
    public func maxDownloadLimits(of ids: some Collection<TaskID>) throws(QueueError) -> [TaskID: Int64?] {
        guard !ids.isEmpty else { return [:] }
        return try read { db in
            var caps: [TaskID: Int64?] = [:]
            let statement = try db.cachedStatement(sql: "SELECT max_download_limit FROM task WHERE id = ?")
            for id in ids {
                guard let row = try Row.fetchOne(statement, arguments: [id.rawValue]) else { continue }
                let cap: Int64? = row[0]
                caps[id] = cap.flatMap { $0 > 0 ? $0 : nil }
            }
            return caps
        }
    }
}
