import GRDB

/// `JournalMeta` reads and writes the `journal_meta` table's counters.
enum JournalMeta {
    /// `Key` names a counter.
    enum Key: String {
        /// `revision` grows with every change other than progress checkpoints.
        case revision
        /// `lowestPosition` is at most the smallest `task.position` (a bound, not exact).
        case lowestPosition = "lowest_position"
        /// `highestPosition` is at least the largest `task.position` (a bound, not exact).
        case highestPosition = "highest_position"
        /// `identity` is a random number made once per journal (see `Journal.identity()`).
        case identity
        /// `orderRevision` grows with every manual change of the queue order (a move, a new
        /// priority); absent (0) until the first.
        case orderRevision = "order_revision"
    }

    static func value(_ db: Database, _ key: Key) throws -> Int64 {
        let statement = try db.cachedStatement(sql: "SELECT value FROM journal_meta WHERE key = ?")
        return try Int64.fetchOne(statement, arguments: [key.rawValue]) ?? 0
    }

    static func set(_ db: Database, _ key: Key, to value: Int64) throws {
        let statement = try db.cachedStatement(sql: "UPDATE journal_meta SET value = ? WHERE key = ?")
        try statement.execute(arguments: [value, key.rawValue])
    }

    /// `bumpOrderRevision(_:)` marks a manual change of the queue order, which a running
    /// scheduler answers by choosing again the tasks it handed ahead of need.
    static func bumpOrderRevision(_ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO journal_meta (key, value) VALUES ('order_revision', 1)
            ON CONFLICT (key) DO UPDATE SET value = value + 1
            """).execute()
    }

    /// `bumpRevision(_:)` marks a change that pollers in other processes should notice.
    static func bumpRevision(_ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE journal_meta SET value = value + 1 WHERE key = 'revision'").execute()
    }
}
