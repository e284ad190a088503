import Testing
import FerryQueue

/// aria2's `bitfield` of a split download: one bit per 1 MiB piece on disk, high bit first.
@Suite struct PieceMapTests {
    private static let mib: Int64 = 1 << 20

    @Test func piecesWhollyOnDiskAreSetHighBitFirst() {
        // Given 10 MiB with bytes 0..<3 MiB and 4.5..<8 MiB on disk.
        let text = PieceMap.bitfield(done: [(0, 3 * Self.mib), (9 * Self.mib / 2, 8 * Self.mib)], total: 10 * Self.mib)
        // Then pieces 0, 1, 2, 5, 6, 7 are set (piece 4 is only half there): 11100111 00000000.
        #expect(text == "e700")
    }

    @Test func theShortLastPieceCountsWhenTheFileEnds() {
        #expect(PieceMap.bitfield(done: [(0, 2 * Self.mib + 5)], total: 2 * Self.mib + 5) == "e0")
        #expect(PieceMap.bitfield(done: [], total: 0) == "")
    }
}
