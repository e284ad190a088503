import Testing
@testable import FerryTUI

@Suite struct LineEditorTests {
    @Test func typingInsertsAtTheCursor() {
        var editor = LineEditor("helo")
        editor.apply(.left)
        editor.insert("l")
        #expect(editor.text == "hello")
        #expect(editor.cursor == 4)
    }

    @Test func cursorMovementStaysInBounds() {
        var editor = LineEditor("ab")
        editor.apply(.right)
        #expect(editor.cursor == 2)
        editor.apply(.home)
        editor.apply(.left)
        #expect(editor.cursor == 0)
        editor.apply(.end)
        #expect(editor.cursor == 2)
    }

    @Test func backspaceAndDeleteRemoveAroundTheCursor() {
        var editor = LineEditor("abcd")
        editor.apply(.left)
        editor.apply(.left)
        editor.apply(.backspace)
        #expect(editor.text == "acd")
        editor.apply(.deleteForward)
        #expect(editor.text == "ad")
        #expect(editor.cursor == 1)
        editor.apply(.home)
        editor.apply(.backspace)
        editor.apply(.end)
        editor.apply(.deleteForward)
        #expect(editor.text == "ad")
    }

    @Test func killCommandsDeleteToTheEnds() {
        var editor = LineEditor("https://example.com/file")
        for _ in 0..<4 { editor.apply(.left) }
        editor.apply(.deleteToEnd)
        #expect(editor.text == "https://example.com/")
        editor.apply(.deleteWordBackward)
        #expect(editor.text == "https://example.com")
        editor.apply(.deleteWordBackward)
        #expect(editor.text == "https://")
        editor.apply(.deleteToStart)
        #expect(editor.text == "")
        #expect(editor.cursor == 0)
    }

    @Test func combiningMarkJoinsThePreviousCharacter() {
        var editor = LineEditor("cafe")
        editor.insert("\u{301}")
        #expect(editor.characters.count == 4)
        #expect(editor.text == "cafe\u{301}")
        #expect(editor.cursor == 4)
        editor.apply(.backspace)
        #expect(editor.text == "caf")
    }

    @Test func regionalIndicatorsTypedSeparatelyFormOneFlag() {
        var editor = LineEditor()
        editor.insert("\u{1F1E9}")
        editor.insert("\u{1F1EA}")
        #expect(editor.characters.count == 1)
        #expect(editor.cursor == 1)
    }

    @Test func shortTextIsShownWhole() {
        let editor = LineEditor("abc")
        let view = editor.viewport(width: 10)
        #expect(view.text == "abc")
        #expect(view.cursorColumn == 3)
    }

    @Test func longTextScrollsToKeepTheCursorVisible() {
        var editor = LineEditor("https://example.com/a/very/long/path/file.iso")
        var view = editor.viewport(width: 12)
        #expect(view.text == "…h/file.iso")
        #expect(view.cursorColumn == 11)
        editor.apply(.home)
        view = editor.viewport(width: 12)
        #expect(view.text == "https://exa…")
        #expect(view.cursorColumn == 0)
        for _ in 0..<15 { editor.apply(.right) }
        view = editor.viewport(width: 12)
        #expect(view.text == "…//example.…")
        #expect(view.cursorColumn == 10)
    }

    @Test func viewportNeverSplitsWideCharactersAndFitsTheWidth() {
        var editor = LineEditor("日本語のファイル名です")
        for width in 1...12 {
            let view = editor.viewport(width: width)
            #expect(DisplayWidth.of(view.text) <= width)
            #expect(view.cursorColumn < width)
        }
        editor.apply(.home)
        let view = editor.viewport(width: 7)
        #expect(view.text == "日本語…")
        #expect(view.cursorColumn == 0)
    }

    @Test func pastedLongUrlIsKeptWholeInTheText() {
        var editor = LineEditor()
        let url = "https://example.com/" + String(repeating: "a", count: 2000) + "?x=1"
        for character in url { editor.insert(String(character)) }
        #expect(editor.text == url)
        #expect(editor.viewport(width: 30).text.hasSuffix("aaa?x=1"))
    }

    @Test func zeroWidthViewportIsEmpty() {
        #expect(LineEditor("abc").viewport(width: 0) == ("", 0))
    }
}
