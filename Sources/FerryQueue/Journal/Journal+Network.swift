import GRDB

/// Whether the engine waits for the network, kept in `journal_meta` (`network_offline`, 1
/// while it waits) so that `ferry list` and the RPC answers can say so.
extension Journal {
    private static let networkKey = "network_offline"

    /// `networkOffline()` is true while an engine of this journal waits for the network.
    public func networkOffline() throws(QueueError) -> Bool {
        try read { db in
            try Int64.fetchOne(db, sql: "SELECT value FROM journal_meta WHERE key = ?", arguments: [Self.networkKey]) ?? 0 != 0
        }
    }

    /// `setNetworkOffline(_:)` records whether the engine waits for the network.
    public func setNetworkOffline(_ offline: Bool) throws(QueueError) {
        try write { db in
            try db.execute(sql: """
                INSERT INTO journal_meta (key, value) VALUES (?, ?)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """, arguments: [Self.networkKey, offline ? 1 : 0])
        }
    }
}
