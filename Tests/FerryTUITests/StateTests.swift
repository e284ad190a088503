import Testing
@testable import FerryTUI
import FerryQueue

@Suite struct StateTests {
    private func rows(_ count: Int) -> [TaskRow] {
        (1...count).map { Fixtures.row(Int64($0), "task-\($0)") }
    }

    @Test func selectionFollowsItsTaskWhenOthersArrive() {
        var state = Fixtures.state(rows: rows(5))
        Fixtures.press([.down, .down], in: &state)
        #expect(state.selectedID == 3)
        state.upsert([Fixtures.row(0, "first", position: -1)])
        #expect(state.selectedID == 3)
        #expect(state.selectedIndex == 3)
    }

    @Test func removingTheSelectedTaskSelectsTheRowThatTakesItsPlace() {
        var state = Fixtures.state(rows: rows(5))
        Fixtures.press([.down, .down], in: &state)
        state.remove([3])
        #expect(state.selectedID == 4)
        #expect(state.selectedIndex == 2)
    }

    @Test func removingTheLastRowClampsTheSelection() {
        var state = Fixtures.state(rows: rows(3))
        Fixtures.press([.character("G")], in: &state)
        state.remove([3])
        #expect(state.selectedID == 2)
        state.remove([1, 2])
        #expect(state.selectedID == nil)
        #expect(state.selectedIndex == 0)
        #expect(state.selectedTask == nil)
    }

    @Test func movementIsClampedAtBothEnds() {
        var state = Fixtures.state(rows: rows(3))
        Fixtures.press([.up, .character("k")], in: &state)
        #expect(state.selectedIndex == 0)
        Fixtures.press([.pageDown, .down, .character("j")], in: &state)
        #expect(state.selectedIndex == 2)
        Fixtures.press([.character("g")], in: &state)
        #expect(state.selectedIndex == 0)
    }

    @Test func scrollingKeepsTheSelectionOnScreen() {
        var state = Fixtures.state(width: 80, height: 12, rows: rows(50))
        let visibleRows = state.layout.tableRows
        Fixtures.press([.character("G")], in: &state)
        #expect(state.scrollTop == 50 - visibleRows)
        Fixtures.press([.pageUp], in: &state)
        #expect(state.selectedIndex == 49 - (visibleRows - 1))
        #expect(state.selectedIndex >= state.scrollTop && state.selectedIndex < state.scrollTop + visibleRows)
        Fixtures.press([.character("g")], in: &state)
        #expect(state.scrollTop == 0)
    }

    @Test func filterNarrowsTheListAsYouTypeAndEscapeClearsIt() {
        var state = Fixtures.state(rows: [Fixtures.row(1, "Alpha.iso"), Fixtures.row(2, "beta.zip"), Fixtures.row(3, "ALPHABET.txt")])
        Fixtures.press([.character("/")] + Fixtures.type("alph"), in: &state)
        #expect(state.visible == [1, 3])
        #expect(state.filter == "alph")
        Fixtures.press([.enter], in: &state)
        #expect(state.mode == .list)
        #expect(state.visible == [1, 3])
        Fixtures.press([.character("/"), .escape], in: &state)
        #expect(state.filter.isEmpty)
        #expect(state.visible == [1, 2, 3])
    }

    @Test func filterThatHidesTheSelectionMovesItToAVisibleRow() {
        var state = Fixtures.state(rows: [Fixtures.row(1, "a"), Fixtures.row(2, "b"), Fixtures.row(3, "ab")])
        Fixtures.press([.down], in: &state)
        Fixtures.press([.character("/"), .character("a")], in: &state)
        #expect(state.visible == [1, 3])
        #expect(state.selectedID != nil)
        #expect(state.visible.contains(state.selectedID ?? -1))
    }

    @Test func queueOrderPutsHigherPrioritiesFirstThenPositions() {
        // Given rows whose positions alone would give another order
        var high = Fixtures.row(3, "high", position: 9)
        high.priority = 5
        let state = Fixtures.state(rows: [Fixtures.row(1, "one", position: 2), Fixtures.row(2, "two", position: 1), high])
        // Then the higher priority comes first, then the lower position, then the lower id
        #expect(state.sortOrder == .queue)
        #expect(state.visible == [3, 2, 1])
    }

    @Test func sortCyclesThroughEveryOrder() {
        var state = Fixtures.state(rows: [
            Fixtures.row(1, "b", .done, done: 10, total: 10),
            Fixtures.row(2, "a", .running, done: 1, total: 10, speed: 5),
            Fixtures.row(3, "C", .queued, total: 10),
        ])
        #expect(state.sortOrder == .queue)
        #expect(state.visible == [1, 2, 3])
        Fixtures.press([.character("s")], in: &state)
        #expect(state.sortOrder == .name)
        #expect(state.visible == [2, 1, 3])
        Fixtures.press([.character("s")], in: &state)
        #expect(state.visible == [1, 2, 3])
        Fixtures.press([.character("s")], in: &state)
        #expect(state.sortOrder == .speed)
        #expect(state.visible == [2, 1, 3])
        Fixtures.press([.character("s")], in: &state)
        #expect(state.sortOrder == .state)
        #expect(state.visible == [2, 3, 1])
        Fixtures.press([.character("s")], in: &state)
        #expect(state.sortOrder == .queue)
    }

    @Test func progressChangesTheOrderOnlyInOrdersThatDependOnIt() {
        var state = Fixtures.state(rows: [
            Fixtures.row(1, "a", .running, speed: 1), Fixtures.row(2, "b", .running, speed: 2),
        ])
        state.upsert([Fixtures.row(1, "a", .running, speed: 9)])
        #expect(state.visible == [1, 2])
        Fixtures.press([.character("s"), .character("s"), .character("s")], in: &state)
        #expect(state.sortOrder == .speed)
        #expect(state.visible == [1, 2])
        state.upsert([Fixtures.row(2, "b", .running, speed: 20)])
        #expect(state.visible == [2, 1])
    }

    @Test func liveProgressReplacesTheLoadedRowInPlace() {
        // Given two running rows sorted by speed
        var state = Fixtures.state(rows: [
            Fixtures.row(1, "a", .running, speed: 9), Fixtures.row(2, "b", .running, speed: 2),
        ])
        Fixtures.press([.character("s"), .character("s"), .character("s")], in: &state)
        // When live progress makes the second faster (the list is the controller's to reorder)
        let effects = state.state.apply([.updateTasks([Fixtures.row(2, "b", .running, done: 5, speed: 20)])])
        // Then the row shows it where it stands, and nothing is asked
        #expect(effects.isEmpty)
        #expect(state.row(at: 1)?.speed == 20)
        #expect(state.row(at: 1)?.bytesDone == 5)
        #expect(state.visible == [1, 2])
    }

    @Test func pauseKeyDependsOnTheTaskState() {
        var state = Fixtures.state(rows: [
            Fixtures.row(1, "a", .running), Fixtures.row(2, "b", .paused),
            Fixtures.row(3, "c", .failed), Fixtures.row(4, "d", .done), Fixtures.row(5, "e", .cancelled),
        ])
        #expect(Fixtures.press([.character(" ")], in: &state) == [.perform(.pause(1))])
        #expect(Fixtures.press([.down, .character(" ")], in: &state) == [.perform(.resume(2))])
        #expect(Fixtures.press([.down, .character(" ")], in: &state).isEmpty)
        #expect(state.message?.text == "The task has stopped; press r to retry it")
        #expect(Fixtures.press([.character("r")], in: &state) == [.perform(.retry(3))])
        #expect(Fixtures.press([.down, .character("r")], in: &state).isEmpty)
        #expect(state.message?.text == "Only failed tasks can be retried")
        // A cancelled task never runs again (the queue refuses it): neither key offers it.
        #expect(Fixtures.press([.down, .character("r")], in: &state).isEmpty)
        #expect(state.message?.text == "A cancelled task does not run again (x removes it)")
        #expect(Fixtures.press([.character(" ")], in: &state).isEmpty)
        #expect(state.message?.text == "The task was cancelled: it does not run again (x removes it)")
    }

    @Test func pauseAllPausesWhileAnythingIsActiveElseResumes() {
        var state = Fixtures.state(rows: [Fixtures.row(1, "a", .running), Fixtures.row(2, "b", .paused)])
        #expect(Fixtures.press([.character("P")], in: &state) == [.perform(.pauseAll)])
        state.upsert([Fixtures.row(1, "a", .paused)])
        #expect(Fixtures.press([.character("P")], in: &state) == [.perform(.resumeAll)])
    }

    @Test func removeAsksFirstAndOffersToDeleteTheFile() {
        var state = Fixtures.state(rows: [Fixtures.row(7, "big.iso"), Fixtures.row(8, "form", kind: .upload)])
        #expect(Fixtures.press([.character("x")], in: &state).isEmpty)
        #expect(state.mode == .confirmRemove(RemovalConfirmation(id: 7, name: "big.iso", offersFileDeletion: true)))
        #expect(Fixtures.press([.character("q")], in: &state).isEmpty)
        #expect(Fixtures.press([.character("d")], in: &state) == [.perform(.remove(7, deleteFile: true))])
        #expect(state.mode == .list)
        #expect(Fixtures.press([.delete, .character("y")], in: &state) == [.perform(.remove(7, deleteFile: false))])
        #expect(Fixtures.press([.down, .character("x"), .character("d")], in: &state).isEmpty)
        #expect(Fixtures.press([.escape], in: &state).isEmpty)
        #expect(state.mode == .list)
    }

    @Test func movingInTheQueueNeedsQueueOrder() {
        var state = Fixtures.state(rows: [Fixtures.row(1, "a"), Fixtures.row(2, "b")])
        #expect(Fixtures.press([.down, .character("K")], in: &state) == [.perform(.move(2, .up))])
        #expect(Fixtures.press([.character("J")], in: &state) == [.perform(.move(2, .down))])
        Fixtures.press([.character("s")], in: &state)
        #expect(Fixtures.press([.character("J")], in: &state).isEmpty)
        #expect(state.message != nil)
    }

    @Test func quitEmitsTheCommandAndStops() {
        var state = Fixtures.state()
        #expect(Fixtures.press([.character("q")], in: &state) == [.perform(.quit), .quit])
        #expect(state.isFinished)
    }

    @Test func closeFromTheApplicationStopsWithoutACommand() {
        var state = Fixtures.state()
        #expect(state.update(.close) == [.quit])
        #expect(state.isFinished)
    }

    @Test func ctrlLAsksForAFullRedraw() {
        var state = Fixtures.state()
        #expect(Fixtures.press([.control("l")], in: &state) == [.redrawAll])
    }

    @Test func unboundKeysDoNothing() {
        var state = Fixtures.state(rows: [Fixtures.row(1, "a")])
        #expect(Fixtures.press([.character("Z"), .function(12), .insert], in: &state).isEmpty)
        #expect(state.mode == .list)
    }

    @Test func anyKeyClearsTheMessage() {
        var state = Fixtures.state(rows: [Fixtures.row(1, "a")])
        _ = state.update(.message(StatusMessage("Saved", isError: false)))
        #expect(state.message?.text == "Saved")
        Fixtures.press([.down], in: &state)
        #expect(state.message == nil)
    }

    @Test func detailPaneTogglesAndGivesItsRowsToTheTable() {
        var state = Fixtures.state(width: 80, height: 24)
        let withDetail = state.layout.tableRows
        Fixtures.press([.enter], in: &state)
        #expect(state.layout.detail == nil)
        #expect(state.layout.tableRows == withDetail + Layout.detailHeight)
    }

    @Test func resizeRelayoutsAndKeepsTheSelectionVisible() {
        var state = Fixtures.state(width: 80, height: 40, rows: (1...40).map { Fixtures.row(Int64($0), "t\($0)") })
        Fixtures.press([.character("G")], in: &state)
        _ = state.update(.resize(Size(width: 60, height: 10)))
        #expect(state.layout.size == Size(width: 60, height: 10))
        #expect(state.selectedIndex >= state.scrollTop)
        #expect(state.selectedIndex < state.scrollTop + state.layout.tableRows)
    }

    @Test func helpScrollsWithinItsText() {
        var state = Fixtures.state(width: 60, height: 10)
        Fixtures.press([.character("?")], in: &state)
        Fixtures.press(Array(repeating: .pageDown, count: 50), in: &state)
        guard case .help(let scroll) = state.mode else {
            Issue.record("help should be open")
            return
        }
        #expect(scroll == HelpView.lineCount(keys: state.keys, boxWidth: state.layout.helpBox.width) - state.layout.helpLines)
        Fixtures.press([.character("q")], in: &state)
        #expect(state.mode == .list)
        #expect(!state.isFinished)
    }

    @Test func statsFollowEveryChange() {
        var state = Fixtures.state(rows: [
            Fixtures.row(1, "a", .running, speed: 100),
            Fixtures.row(2, "b", .running, kind: .upload, speed: 7),
            Fixtures.row(3, "c", .queued),
        ])
        #expect(state.stats.count(.running) == 2)
        #expect(state.stats.downloadSpeed == 100)
        #expect(state.stats.uploadSpeed == 7)
        state.upsert([Fixtures.row(1, "a", .done, speed: 0), Fixtures.row(3, "c", .running, speed: 50)])
        state.remove([2, 99])
        #expect(state.stats == state.table.stats)
        #expect(state.stats.count(.running) == 1)
        #expect(state.stats.downloadSpeed == 50)
        #expect(state.stats.uploadSpeed == 0)
        #expect(state.wantsTick)
    }
}
