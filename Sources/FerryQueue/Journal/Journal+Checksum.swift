import GRDB

extension Journal {
    /// `setChecksum(_:for:)` replaces the checksum task `id` is verified against (`nil`:
    /// none), from its next attempt on: a download queued again by a new command carries
    /// that command's checksum, never an earlier one's.
    public func setChecksum(_ checksum: Checksum?, for id: TaskID) throws(QueueError) {
        try write { db in
            try db.execute(sql: "UPDATE task SET checksum_algorithm = ?, checksum_hex = ? WHERE id = ?",
                           arguments: [checksum?.algorithm.rawValue, checksum?.hex, id.rawValue])
            guard db.changesCount == 1 else { throw QueueError.journal(.taskNotFound(id)) }
        }
    }
}
