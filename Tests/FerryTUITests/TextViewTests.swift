import Testing
@testable import FerryTUI

/// Long errors and upload replies can be read in full.
@Suite struct TextViewTests {
    static let longError = "HTTP 502 Bad Gateway: " + (1...40).map { "part\($0)" }.joined(separator: " ") + " END"

    static func uploadRow() -> TaskRow {
        TaskRow(
            id: 7, kind: .upload, name: "form.bin", state: .failed, urls: ["https://up.example/form"], destination: "/a.bin",
            attempts: 2, lastError: longError, reply: "{\n  \"error\": \"boom\",\n\t\"trace\": \"\u{1B}[31mred\"\n}")
    }

    @Test func textWrapsKeepsLineBreaksAndNeverSplitsAWideCharacter() {
        #expect(TextWrap.lines("abcdef\nxy", width: 4) == ["abcd", "ef", "xy"])
        #expect(TextWrap.lines("one two three", width: 8) == ["one two", "three"])
        #expect(TextWrap.lines("one two three", width: 7) == ["one two", "three"])
        #expect(TextWrap.lines("ab cdefghij", width: 4) == ["ab", "cdef", "ghij"])
        #expect(TextWrap.lines("a 日本語", width: 3) == ["a", "日", "本", "語"])
        #expect(TextWrap.lines("日本語", width: 5) == ["日本", "語"])
        #expect(TextWrap.lines("a\tb\r\n\u{7}", width: 10) == ["a    b", "\u{FFFD}"])
        #expect(TextWrap.lines("", width: 0) == [""])
    }

    @Test func theDetailPaneSaysWhenSomethingIsCutAndVOpensTheWholeText() throws {
        // Given a failed upload whose error is far longer than the detail pane
        var state = Fixtures.state(width: 60, height: 24, rows: [Self.uploadRow()])
        let screen = Fixtures.render(state)
        let title = try #require(screen.first { $0.hasPrefix("─ Details ") })
        #expect(title.hasSuffix(" v full text ─"))
        #expect(!screen.joined().contains("END"))
        // When v is pressed
        Fixtures.press([.character("v")], in: &state)
        // Then a frame over the whole screen shows the error wrapped, whole, and the reply with its own line breaks
        guard case .text(let viewer) = state.mode else {
            Issue.record("mode is \(state.mode)")
            return
        }
        #expect(viewer.text.contains(Self.longError))
        var lines = Fixtures.render(state)
        #expect(lines[0].hasPrefix("┌─ form.bin "))
        #expect(lines[0].contains("1-21/"))
        #expect(lines[22].hasPrefix("│ ↓ Scroll  Esc Close"))
        #expect(lines.contains { $0.hasPrefix("│ Last error:") })
        // When it is scrolled to the bottom
        Fixtures.press([.end], in: &state)
        lines = Fixtures.render(state)
        let text = lines.joined(separator: "\n")
        #expect(text.contains("END"))
        #expect(lines.contains { $0.hasPrefix("│   \"error\": \"boom\",") })
        #expect(lines.contains { $0.hasPrefix("│     \"trace\": \"\u{FFFD}[31mred\"") })
        for line in lines { #expect(!line.unicodeScalars.contains(where: DisplayText.isUnsafe)) }
        // And Escape closes it
        Fixtures.press([.escape], in: &state)
        #expect(state.mode == .list)
    }

    @Test func scrollingStaysWithinTheTextAndFollowsAResize() {
        var state = Fixtures.state(width: 40, height: 10, rows: [Self.uploadRow()])
        Fixtures.press([.character("v"), .up, .pageUp], in: &state)
        guard case .text(let top) = state.mode else { return }
        #expect(top.scroll == 0)
        Fixtures.press([.end, .down, .pageDown], in: &state)
        guard case .text(let bottom) = state.mode else { return }
        let total = bottom.lines(width: state.layout.textWidth).count
        #expect(bottom.scroll == total - state.layout.textLines)
        _ = state.update(.resize(Size(width: 120, height: 40)))
        guard case .text(let wide) = state.mode else { return }
        #expect(wide.scroll == max(0, wide.lines(width: state.layout.textWidth).count - state.layout.textLines))
        Fixtures.press([.home], in: &state)
        guard case .text(let home) = state.mode else { return }
        #expect(home.scroll == 0)
    }

    @Test func withNoTaskSelectedVSaysSo() {
        var state = Fixtures.state()
        Fixtures.press([.character("v")], in: &state)
        #expect(state.mode == .list)
        #expect(state.message == StatusMessage("No task selected"))
    }
}
