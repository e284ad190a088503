import Testing
@testable import FerryTUI

@Suite struct ProgressBarTests {
    private func bar(_ fraction: Double?, running: Bool = false, tick: Int = 0, width: Int = 10) -> String {
        var grid = Grid(size: Size(width: width, height: 1))
        ProgressBar(fraction: fraction, isRunning: running, tick: tick).render(into: &grid, x: 0, y: 0, width: width, selected: false)
        return grid.lines()[0]
    }

    @Test func knownFractionsFillFromTheLeftInHalfCells() {
        #expect(bar(0) == "──────────")
        #expect(bar(0.25) == "━━╸───────")
        #expect(bar(0.5) == "━━━━━─────")
        #expect(bar(1) == "━━━━━━━━━━")
    }

    @Test func unknownSizeWhileRunningBouncesASegmentWithinTheBar() {
        #expect(bar(nil, running: true, tick: 0) == "━━━───────")
        #expect(bar(nil, running: true, tick: 7) == "───────━━━")
        #expect(bar(nil, running: true, tick: 8) == "──────━━━─")
        for tick in 0..<40 { #expect(bar(nil, running: true, tick: tick).filter { $0 == "━" }.count == 3) }
    }

    @Test func unknownSizeWhileIdleIsEmpty() {
        #expect(bar(nil) == "──────────")
    }

    @Test func columnsShrinkWithTheScreenButKeepTheName() {
        #expect(TableColumns(width: 80).name == 30)
        #expect(TableColumns(width: 80).bar == 15)
        #expect(TableColumns(width: 40).bar == 0)
        #expect(TableColumns(width: 40).eta == 0)
        #expect(TableColumns(width: 14).name == 12)
        #expect(TableColumns(width: 0).name == 0)
    }
}
