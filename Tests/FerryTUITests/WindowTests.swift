import Testing
@testable import FerryTUI

/// The task table as a window onto the controller's list: what the state asks for, and what
/// it does with the answers.
@Suite struct WindowTests {
    static let table = TaskRowTable((0..<10_000).map { Fixtures.row(Int64($0), "file-\($0).bin", total: 100) })

    private func requests(_ effects: [TUIEffect]) -> [TaskViewRequest] {
        effects.compactMap { if case .show(let request) = $0 { request } else { nil } }
    }

    @Test func aLongListIsHeldThreeScreensAtATime() {
        // Given a front end on 10,000 tasks
        let state = Fixtures.state(width: 60, height: 14, rows: Array(Self.table.rows.values))
        let screen = state.layout.tableRows
        // Then it lists them all but holds the rows of three screens only
        #expect(state.listCount == 10_000)
        #expect(state.window?.rows.count == 3 * screen)
        #expect(state.visible.prefix(3) == [0, 1, 2])
        #expect(state.stats.count(.queued) == 10_000)
    }

    @Test func jumpingToTheEndAsksForItsRowsAndSelectsTheLastTaskWhenTheyArrive() throws {
        // Given a front end showing the first rows
        var state = TUIState(size: Size(width: 60, height: 14))
        Self.table.load(into: &state)
        let screen = state.layout.tableRows
        // When the user jumps to the end
        let asked = requests(state.apply([.key(.character("G"))]))
        // Then the rows of the last screen are asked for; until they come nothing is selected
        let request = try #require(asked.last)
        #expect(request.offset <= 10_000 - screen && request.offset + request.limit >= 10_000)
        #expect(state.selectedIndex == 9_999 && state.selectedTask == nil)
        #expect(state.scrollTop == 10_000 - screen)
        // When they arrive, the last task is selected and drawn at the bottom
        _ = Self.table.answer(state.apply([.window(Self.table.window(for: request))]), in: &state)
        #expect(state.selectedTask?.id == 9_999)
        let lines = Renderer.render(state).lines()
        #expect(lines[2 + screen - 1].hasPrefix("◌ file-9999.bin"))
    }

    @Test func theSelectionFollowsItsTaskWhereverTheAnswerSaysItIs() {
        // Given the sixth task selected
        var state = Fixtures.state(width: 60, height: 14, rows: Array(Self.table.rows.values))
        Fixtures.press(Array(repeating: .down, count: 5), in: &state)
        #expect(state.selectedID == 5)
        // When it moves to the end of the queue (another shell, say) and the list is answered again
        state.upsert([Fixtures.row(5, "file-5.bin", total: 100, position: 20_000)])
        // Then it stays selected, at its new place, on screen
        #expect(state.selectedID == 5)
        #expect(state.selectedIndex == 9_999)
        #expect(state.scrollTop == 10_000 - state.layout.tableRows)
        #expect(state.selectedTask?.name == "file-5.bin")
    }

    @Test func anAnswerForAnotherQueryOnlyUpdatesTheFigures() {
        // Given a front end whose order just changed, its answer not yet in
        var state = TUIState(size: Size(width: 60, height: 14))
        let small = TaskRowTable([Fixtures.row(1, "b"), Fixtures.row(2, "a", .running, speed: 5)])
        small.load(into: &state)
        let shown = state.window
        _ = state.apply([.key(.character("s"))])
        #expect(state.sortOrder == .name)
        // When an answer for the old order arrives with new figures
        var stale = small.window(for: TaskViewRequest(limit: 10))
        var figures = TaskStats()
        figures.add(.done, kind: .download)
        stale.stats = figures
        stale.rows.reverse()
        _ = state.apply([.window(stale)])
        // Then the figures change and the rows shown do not
        #expect(state.stats == figures)
        #expect(state.window == shown)
    }

    @Test func nothingIsAskedWhileTheScreenStaysWithinTheRowsAsked() {
        var state = TUIState(size: Size(width: 60, height: 14))
        Self.table.load(into: &state)
        #expect(requests(state.apply([.tick])).isEmpty)
        #expect(requests(state.apply([.message(StatusMessage("hello"))])).isEmpty)
        #expect(requests(state.apply([.updateTasks([Fixtures.row(1, "file-1.bin", .running, done: 50, total: 100)])])).isEmpty)
        #expect(state.row(at: 1)?.bytesDone == 50)
        // A new filter is a new query: it is asked for at once
        #expect(requests(state.apply([.key(.character("/")), .key(.character("9"))])).last?.query == TaskQuery(filter: "9"))
    }
}
