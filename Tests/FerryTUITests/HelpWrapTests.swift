import Testing
@testable import FerryTUI

/// The help screen wraps each entry's text to the window instead of cutting it with `…`.
@Suite struct HelpWrapTests {
    @Test(arguments: [40, 60, 100])
    func everyHelpTextIsShownWholeWrappedToTheWindow(width: Int) {
        // Given the help screen open on a window this wide and tall enough for all of it
        var screen = Fixtures.state(width: width, height: 200)
        Fixtures.press([.character("?")], in: &screen)

        // When it is drawn
        let lines = Fixtures.render(screen)

        // Then no line is cut, and every entry's words are there in order
        #expect(!lines.contains { $0.contains(DisplayText.ellipsis) }, "\(lines)")
        let shown = lines.joined(separator: " ").split(whereSeparator: { $0 == " " || $0 == "│" }).joined(separator: " ")
        for entry in screen.state.keys.helpSections.flatMap(\.entries) {
            let words = entry.help.split(separator: " ").joined(separator: " ")
            #expect(shown.contains(words), "\(entry.help) at \(width) columns")
        }
    }

    @Test func aLongEntryTakesSeveralRowsWithItsKeysOnTheFirst() {
        let rows = HelpView.lines(keys: .standard, boxWidth: 40)
        let purge = "Remove the done or the failed tasks from the list (asks first; files are kept)"
        let start = rows.firstIndex { $0.keys == "X" } ?? -1
        #expect(start >= 0)
        let continued = rows[(start + 1)...].prefix { $0.keys.isEmpty && !$0.text.isEmpty && !$0.isTitle }
        #expect(!continued.isEmpty)
        #expect(([rows[start].text] + continued.map(\.text)).joined(separator: " ") == purge)
        #expect(rows.allSatisfy { DisplayWidth.of($0.text) <= HelpView.columns(boxWidth: 40).text })
    }
}
