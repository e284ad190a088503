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
