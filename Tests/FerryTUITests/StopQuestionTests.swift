import Testing
@testable import FerryTUI

/// `Q` quits and stops the transfers after a question; `q` quits and leaves them running.
@Suite struct StopQuestionTests {
    @Test func theQuestionCountsTheTransfersAndOnlyYesStopsThem() {
        var state = Fixtures.state(width: 70, height: 16, rows: [
            Fixtures.row(1, "a.iso", .running, total: 10), Fixtures.row(2, "b.iso"), Fixtures.row(3, "c.iso"),
        ])
        Fixtures.press([.character("Q")], in: &state)
        #expect(state.mode == .confirmStop(StopQuestion(running: 1, queued: 2)))
        let lines = Fixtures.render(state)
        #expect(lines.contains { $0.contains("1 running, 2 queued. Quit and stop them?") })
        #expect(lines.contains { $0.contains("y Quit and stop  n Cancel") })
        // No stays.
        #expect(Fixtures.press([.character("n")], in: &state).isEmpty)
        #expect(state.mode == .list)
        // Yes quits and stops.
        Fixtures.press([.character("Q")], in: &state)
        #expect(Fixtures.press([.character("y")], in: &state) == [.perform(.quitAndStop), .quit])
    }

    @Test func plainQuitLeavesTheTransfersToTheEngine() {
        var state = Fixtures.state(rows: [Fixtures.row(1, "a.iso", .running, total: 10)])
        #expect(Fixtures.press([.character("q")], in: &state) == [.perform(.quit), .quit])
    }
}
