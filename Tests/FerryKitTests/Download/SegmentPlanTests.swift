import Testing
@testable import FerryKit

/// `SegmentPlan`: how a split download hands out ranges, without a server.
@Suite struct SegmentPlanTests {
    private static let mib: Int64 = 1 << 20

    @Test func newConnectionsStartAtTheMiddleOfTheLargestRangeLeft() {
        // Given 16 MiB fetched by connection 0 from the start.
        var plan = SegmentPlan(total: 16 * Self.mib, minSplitSize: Self.mib)
        #expect(plan.claim(for: 0) { _ in 0 } == 0)

        // When three more connections come.
        var starts: [Int64?] = []
        for owner in 1...3 {
            let index = plan.claim(for: owner) { Double($0.remaining) }
            starts.append(index.map { plan[$0].start })
        }

        // Then each took the second half of the largest range: 8, then 4 (the first of two
        // equal halves), then 12 MiB.
        #expect(starts == [8, 4, 12].map { $0 * Self.mib })
        #expect(plan.pieces.map(\.start) == [0, 4, 8, 12].map { $0 * Self.mib })
        #expect(plan.pieces.map(\.end) == [4, 8, 12, 16].map { $0 * Self.mib })
        #expect(Set(plan.pieces.compactMap(\.owner)) == [0, 1, 2, 3])
    }

    @Test func theSlowestConnectionsRangeIsSplitWhenSpeedsDiffer() {
        var plan = SegmentPlan(total: 16 * Self.mib, minSplitSize: Self.mib)
        _ = plan.claim(for: 0) { _ in 0 }
        _ = plan.claim(for: 1) { Double($0.remaining) }
        // Given connection 0 (first half) fast and connection 1 (second half) crawling.
        let speeds: [Int: Double] = [0: 10_000_000, 1: 1_000]

        // When a third connection comes.
        let index = plan.claim(for: 2) { Double($0.remaining) / speeds[$0.owner ?? -1, default: 1] }

        // Then it took the second half of the crawling connection's range.
        #expect(index.map { plan[$0].start } == 12 * Self.mib)
        #expect(plan.pieces.first { $0.owner == 1 }?.end == 12 * Self.mib)
    }

    @Test func noRangeBelowTwiceTheMinimumIsSplit() {
        var plan = SegmentPlan(total: 3 * Self.mib, minSplitSize: 2 * Self.mib)
        _ = plan.claim(for: 0) { _ in 0 }
        #expect(plan.claim(for: 1) { Double($0.remaining) } == nil)
        #expect(plan.pieces.count == 1)
    }

    @Test func recordedRangesResumeFromTheirDurableEnds() throws {
        // Given ranges recorded by a download with another number of connections.
        let plan = try #require(SegmentPlan(total: 300, minSplitSize: 10, ranges: [
            SegmentRange(start: 100, end: 200, durableOffset: 150),
            SegmentRange(start: 0, end: 100, durableOffset: 100),
            SegmentRange(start: 200, end: 300, durableOffset: 200),
        ]))
        // Then each piece goes on where it was durable, and a complete one is not fetched.
        #expect(plan.pieces.map(\.next) == [100, 150, 200])
        #expect(plan.writtenBytes == 150)
        #expect(!plan.isComplete)
        // And ranges with a gap or past the total are refused.
        #expect(SegmentPlan(total: 300, minSplitSize: 10, ranges: [SegmentRange(start: 0, end: 100, durableOffset: 0),
                                                                     SegmentRange(start: 150, end: 300, durableOffset: 150)]) == nil)
        #expect(SegmentPlan(total: 300, minSplitSize: 10, ranges: [SegmentRange(start: 0, end: 400, durableOffset: 0)]) == nil)
    }

    @Test func aCrawlingRangeIsTakenOverFromWhereItIs() {
        var plan = SegmentPlan(total: 1000, minSplitSize: 600)
        _ = plan.claim(for: 0) { _ in 0 }
        plan.advance(0, by: 300)
        let index = plan.takeOver(0, by: 1)
        #expect(plan[index].start == 300 && plan[index].owner == 1)
        #expect(plan[0].end == 300 && plan[0].owner == nil)
        plan.advance(index, by: 700)
        #expect(plan.isComplete)
        plan.markDurable()
        #expect(plan.ranges == [SegmentRange(start: 0, end: 1000, durableOffset: 1000)])
    }

    @Test func bytesThatNeverReachedTheFileAreTakenBackButNeverBelowWhatIsDurable() {
        // Given one range with 3 MiB written, 2 MiB of them durable.
        var plan = SegmentPlan(total: 8 * Self.mib, minSplitSize: Self.mib)
        let index = plan.claim(for: 0) { _ in 0 } ?? -1
        plan.advance(index, by: 2 * Self.mib)
        plan.markDurable()
        plan.advance(index, by: Self.mib)

        // When 512 KiB could not be written, then more than was written since the sync.
        plan.rewind(index, by: Self.mib / 2)
        #expect(plan[index].next == 2 * Self.mib + Self.mib / 2)
        plan.rewind(index, by: 4 * Self.mib)

        // Then the range goes on from what is on disk, never from before its durable end.
        #expect(plan[index].next == 2 * Self.mib)
        #expect(plan.writtenBytes == plan.durableBytes)
    }

    @Test func aRangeAboutToEndIsNotSplit() {
        // Given two connections, each with 4 MiB left of its half.
        var plan = SegmentPlan(total: 16 * Self.mib, minSplitSize: Self.mib)
        _ = plan.claim(for: 0) { _ in 0 }
        _ = plan.claim(for: 1) { Double($0.remaining) }
        plan.advance(0, by: 4 * Self.mib)
        plan.advance(1, by: 4 * Self.mib)

        // When a third connection comes while both would end within 0.4 s (10 MiB/s), then
        // while one would need 4 s (1 MiB/s).
        let soon = plan.claim(for: 2) { Double($0.remaining) / Double(10 * Self.mib) }
        let speeds: [Int: Double] = [0: Double(10 * Self.mib), 1: Double(Self.mib)]
        let later = plan.claim(for: 2) { Double($0.remaining) / speeds[$0.owner ?? -1, default: 1] }

        // Then it takes nothing at first, then the second half of the slow one's range.
        #expect(soon == nil)
        #expect(later.map { plan[$0].start } == 14 * Self.mib)
    }

    @Test func aCorruptPieceInsideARangeIsReopenedAloneAndItsWriterAvoided() {
        // Given one range of 8 MiB from source 1, written up to 6 MiB, its connection still going.
        var plan = SegmentPlan(total: 8 * Self.mib, minSplitSize: Self.mib)
        let index = plan.claim(for: 0, source: 1) { _ in 0 }
        #expect(index == 0 && plan[0].writer == 1)
        plan.advance(0, by: 6 * Self.mib)
        plan.markDurable()

        // When its bytes 2-3 MiB fail their hash.
        plan.reopen(2 * Self.mib..<3 * Self.mib, avoiding: [1])

        // Then those bytes are a range of their own to fetch again, not written, not durable;
        // the connection goes on after them; the rest stays written.
        #expect(plan.pieces.map(\.start) == [0, 2 * Self.mib, 3 * Self.mib])
        #expect(plan[1].next == 2 * Self.mib && plan[1].durable == 2 * Self.mib && plan[1].owner == nil && plan[1].avoid == [1])
        #expect(plan.index(of: 0) == 2 && plan[2].next == 6 * Self.mib)
        #expect(plan.writtenBytes == 5 * Self.mib && !plan.isWritten(0..<3 * Self.mib) && plan.isWritten(0..<2 * Self.mib))

        // When all else is written, a connection to source 1 leaves the piece to another source
        // (strict: one can serve it); source 2 takes it.
        plan.advance(2, by: 2 * Self.mib)
        #expect(plan.claim(for: 1, source: 1, strict: true) { _ in 0 } == nil)
        let other = plan.claim(for: 2, source: 2) { _ in 0 }
        #expect(other.map { plan[$0].start } == 2 * Self.mib)
    }

    @Test func aRangeTakenUpFromAnotherSourceSplitsWhereItsBytesEnd() {
        // Given a range written by source 0 up to 1 MiB whose connection ended.
        var plan = SegmentPlan(total: 4 * Self.mib, minSplitSize: Self.mib)
        _ = plan.claim(for: 0, source: 0) { _ in 0 }
        plan.advance(0, by: Self.mib)
        plan.release(0)

        // When a connection to source 2 takes it up.
        let index = plan.claim(for: 1, source: 2) { _ in 0 }

        // Then source 0's bytes stay a range of their own, and source 2 writes the rest.
        #expect(plan.pieces.count == 2)
        #expect(index.map { plan[$0].start } == Self.mib && index.map { plan[$0].writer } == 2)
        #expect(plan.writers(of: 0..<Self.mib) == [0] && plan.writers(of: 0..<2 * Self.mib) == [0])
    }
}
