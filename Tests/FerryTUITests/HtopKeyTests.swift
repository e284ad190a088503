import Testing
@testable import FerryTUI

/// The keys htop users try, and what the footer and the help say.
@Suite struct HtopKeyTests {
    static let rows = [Fixtures.row(1, "alpha.iso", .paused, total: 100), Fixtures.row(2, "beta.iso", .failed)]

    @Test func functionKeysOpenHelpFilterRemoveAndQuit() {
        var state = Fixtures.state(rows: Self.rows)
        Fixtures.press([.function(1)], in: &state)
        #expect(state.mode == .help(scroll: 0))
        Fixtures.press([.function(1)], in: &state)
        #expect(state.mode == .list)
        Fixtures.press([.function(3)] + Fixtures.type("beta") + [.enter], in: &state)
        #expect(state.filter == "beta")
        #expect(state.visible == [2])
        Fixtures.press([.function(9)], in: &state)
        #expect(state.mode == .confirmRemove(RemovalConfirmation(id: 2, name: "beta.iso", offersFileDeletion: true)))
        Fixtures.press([.escape], in: &state)
        let effects = Fixtures.press([.function(10)], in: &state)
        #expect(effects == [.perform(.quit), .quit])
        #expect(state.isFinished)
    }

    @Test func escapeInTheListClearsTheFilter() {
        var state = Fixtures.state(rows: Self.rows)
        Fixtures.press([.character("/")] + Fixtures.type("alp") + [.enter], in: &state)
        #expect(state.visible == [1])
        Fixtures.press([.escape], in: &state)
        #expect(state.filter.isEmpty)
        #expect(state.visible == [1, 2])
    }

    @Test func theFooterSaysResumeOnAPausedTask() {
        var state = Fixtures.state(width: 80, height: 12, rows: Self.rows)
        #expect(Fixtures.render(state)[10].hasPrefix(" a Add  u Upload  Space Resume  r Retry"))
        Fixtures.press([.down], in: &state)
        #expect(Fixtures.render(state)[10].hasPrefix(" a Add  u Upload  Space Pause  r Retry"))
    }

    @Test func theHelpOverlaysFooterIsDrawnOnce() {
        // Given a screen wider than the help frame, so the rows under it show at its sides
        var state = Fixtures.state(width: 100, height: 20, rows: Self.rows)
        Fixtures.press([.character("?")], in: &state)
        let lines = Fixtures.render(state)
        // Then the help's hints appear once, inside its frame
        let screen = lines.joined(separator: "\n")
        #expect(screen.ranges(of: "Esc Close").count == 1)
        #expect(screen.ranges(of: "↓ Scroll").count == 1)
        #expect(lines[18].hasPrefix("          │ ↓ Scroll  Esc Close"))
        #expect(lines[18].trimmingSpaces().hasSuffix("│"))
    }

    @Test func theHelpNamesTheFunctionKeysAndThePaste() {
        let lines = HelpView.lines(keys: .standard)
        #expect(lines.contains { $0.keys == "?/F1" && $0.text == "Show this help" })
        #expect(lines.contains { $0.keys == "F3" && $0.text == "Filter (as /)" })
        #expect(lines.contains { $0.keys == "x/Del/F9" })
        #expect(lines.contains { $0.keys == "q/F10" && $0.text == "Quit; the transfers go on in the background" })
        #expect(lines.contains { $0.keys == "Esc" && $0.text == "Clear the filter" })
        #expect(lines.contains { $0.keys == "Paste" && $0.text.contains("add dialog") })
        #expect(lines.contains { $0.keys == "X" && $0.text.contains("done or the failed") })
    }
}
