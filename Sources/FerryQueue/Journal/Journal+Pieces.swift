import FerryKit
import GRDB

/// A download's piece hashes and the pieces checked against them (`task.piece_hashes`,
/// `task.verified_pieces`): written at insert and after each checkpoint, read when the download
/// starts, so that after a crash only the pieces not checked are fetched again.
extension Journal {
    /// `pieces(of:)` are task `id`'s piece hashes and the pieces known checked; no hashes when
    /// it has none (or they cannot be read: the whole-file hash still guards the file).
    public func pieces(of id: TaskID) throws(QueueError) -> (hashes: PieceHashes?, verified: Set<Int>) {
        let row = try read { db in
            try Row.fetchOne(db, sql: "SELECT piece_hashes, verified_pieces FROM task WHERE id = ?", arguments: [id.rawValue])
        }
        guard let text: String = row?["piece_hashes"], let hashes = PieceHashes.decoded(text) else { return (nil, []) }
        let verified: String? = row?["verified_pieces"]
        return (hashes, verified.map { VerifiedPieces.decode($0, limit: hashes.hashes.count) } ?? [])
    }

    /// `recordVerifiedPieces(_:for:)` keeps the pieces of task `id` checked against their
    /// hashes; call it only once their bytes are synchronized.
    public func recordVerifiedPieces(_ pieces: Set<Int>, for id: TaskID) throws(QueueError) {
        try write { db in
            try db.execute(sql: "UPDATE task SET verified_pieces = ? WHERE id = ?", arguments: [VerifiedPieces.encode(pieces), id.rawValue])
        }
    }
}

extension Journal {
    /// `addSources(_:found:)` keeps what a response of task `id` said of its file
    /// (Metalink/HTTP): the mirrors it does not have yet, after its own URLs (its next attempt
    /// fetches from all of them when a hash can check them), and the digest, when it has no
    /// checksum. Nothing for a task that is not a download.
    public func addSources(_ id: TaskID, found: MetalinkHTTP) throws(QueueError) {
        try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT kind, checksum_hex FROM task WHERE id = ?", arguments: [id.rawValue]),
                  (row["kind"] as String?) == "download" else { return }
            let known = try String.fetchAll(db, sql: "SELECT url FROM task_url WHERE task_id = ? ORDER BY ordinal", arguments: [id.rawValue])
            var seen = Set(known)
            var ordinal = known.count
            var changed = false
            for mirror in found.mirrors {
                guard let url = try? TransferURL(validating: mirror.absoluteString), seen.insert(url.string).inserted else { continue }
                try db.execute(sql: "INSERT INTO task_url (task_id, ordinal, url) VALUES (?, ?, ?)", arguments: [id.rawValue, ordinal, url.string])
                ordinal += 1
                changed = true
            }
            if let checksum = found.checksum, (row["checksum_hex"] as String?) == nil {
                try db.execute(sql: "UPDATE task SET checksum_algorithm = ?, checksum_hex = ? WHERE id = ?",
                               arguments: [checksum.algorithm.rawValue, checksum.hex, id.rawValue])
                changed = true
            }
            if changed { try JournalMeta.bumpRevision(db) }
        }
    }
}
