import FerryKit
import Foundation
import Testing
@testable import FerryQueue

/// Schema version 9: a download's piece hashes and the pieces checked against them, kept so
/// that after a crash only the others are fetched again; a start-over forgets the checked ones.
@Suite struct JournalPiecesTests {
    @Test func pieceHashesAndCheckedPiecesRoundTripAndAStartOverForgetsTheChecked() throws {
        let temp = try TemporaryDirectory()
        let journal = try Journal.open(at: temp.file("journal.sqlite")).journal
        let hashes = try #require(PieceHashes(algorithm: .sha256, length: 1 << 20,
                                              hashes: (0..<5).map { String(repeating: "\($0)", count: 64) }))
        let urls = try ["http://a.example/f", "http://b.example/f"].map { try TransferURL(validating: $0) }
        let id = try journal.insert(NewTask(spec: TaskSpec(urls: urls), pieceHashes: hashes))
        let plain = try journal.insert(NewTask(spec: TaskSpec(urls: urls)))

        #expect(try journal.pieces(of: id).hashes == hashes && journal.pieces(of: id).verified.isEmpty)
        #expect(try journal.pieces(of: plain).hashes == nil)

        try journal.recordVerifiedPieces([0, 1, 2, 4], for: id)
        #expect(try journal.pieces(of: id).verified == [0, 1, 2, 4])

        // A checkpoint with ranges keeps them; one without (the download started over) forgets them.
        try journal.recordSegmentedCheckpoint(id, ResumeRecord(), segments: [Segment(start: 0, end: 5 << 20, durableOffset: 3 << 20)])
        #expect(try journal.pieces(of: id).verified == [0, 1, 2, 4])
        try journal.recordSegmentedCheckpoint(id, ResumeRecord(), segments: [])
        #expect(try journal.pieces(of: id).verified.isEmpty)
    }

    @Test func checkedPiecesAreWrittenAsRangesAndReadWithinTheirCount() {
        #expect(VerifiedPieces.encode([0, 1, 2, 4, 6, 7]) == "0-2,4,6-7")
        #expect(VerifiedPieces.decode("0-2,4,6-7", limit: 7) == [0, 1, 2, 4, 6])
        #expect(VerifiedPieces.decode("x,-3,5-2,9", limit: 20) == [9])
    }
}
