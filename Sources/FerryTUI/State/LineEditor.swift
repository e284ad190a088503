/// `LineEditor` is a one-line text field: the text, a cursor between grapheme clusters, and
/// the editing operations of `EditAction`.
///
/// Long text scrolls horizontally: `viewport(width:)` picks the part around the cursor.
/// The whole text may start selected (a prompt that shows the current value): typing or
/// pasting replaces it, a deletion clears it, and moving the cursor keeps it.
public struct LineEditor: Sendable, Hashable {
    /// `characters` is the text as grapheme clusters.
    public private(set) var characters: [Character]
    /// `cursor` is the index in `characters` before which the next character is inserted.
    public private(set) var cursor: Int
    /// `isSelected` is true while the whole text is selected; `false` by default.
    public private(set) var isSelected = false

    /// `init(_:selected:)` makes an editor holding `text` (empty by default) with the cursor
    /// at its end; `selected` selects the whole text (`false` by default; an empty text is
    /// never selected).
    public init(_ text: String = "", selected: Bool = false) {
        characters = Array(text)
        cursor = characters.count
        isSelected = selected && !characters.isEmpty
    }

    /// `text` is the whole text.
    public var text: String { String(characters) }

    /// `insert(_:)` inserts text at the cursor and moves the cursor after it.
    ///
    /// Characters that merge with their neighbour (a combining mark typed after its base)
    /// join the neighbouring cluster.
    public mutating func insert(_ text: String) {
        guard !text.isEmpty else { return }
        if isSelected { clear() }
        let start = cursor
        characters.insert(contentsOf: Array(text), at: cursor)
        cursor += text.count
        let window = characters[max(0, start - 1)..<min(characters.count, cursor + 1)]
        if String(window).count != window.count {
            // A boundary merged (combining mark, flag, joiner): segment the text again.
            let before = String(characters[..<cursor])
            characters = Array(before + String(characters[cursor...]))
            cursor = min(before.count, characters.count)
        }
    }

    /// `apply(_:)` performs one editing operation; on a selected text a deletion clears it
    /// and a move ends the selection.
    public mutating func apply(_ action: EditAction) {
        if isSelected {
            isSelected = false
            switch action {
            case .left, .right, .home, .end: break
            case .backspace, .deleteForward, .deleteToStart, .deleteToEnd, .deleteWordBackward:
                clear()
                return
            }
        }
        switch action {
        case .left:
            cursor = max(0, cursor - 1)
        case .right:
            cursor = min(characters.count, cursor + 1)
        case .home:
            cursor = 0
        case .end:
            cursor = characters.count
        case .backspace:
            guard cursor > 0 else { return }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .deleteForward:
            guard cursor < characters.count else { return }
            characters.remove(at: cursor)
        case .deleteToStart:
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .deleteToEnd:
            characters.removeSubrange(cursor...)
        case .deleteWordBackward:
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " ", characters[start - 1] != "/" { start -= 1 }
            if start == cursor, start > 0 { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        }
    }

    /// `clear()` empties the editor.
    private mutating func clear() {
        characters = []
        cursor = 0
        isSelected = false
    }

    /// `viewport(width:)` is the part of the text shown in a field `width` columns wide and
    /// the cursor's column in it.
    ///
    /// The cursor is always visible. When the text is cut, `…` marks the cut side (fields of
    /// at least 4 columns). The result is never wider than `width`.
    public func viewport(width: Int) -> (text: String, cursorColumn: Int) {
        guard width > 0 else { return ("", 0) }
        let widths = characters.map { DisplayWidth.of($0) }
        let cursorCell = cursor < widths.count ? max(1, widths[cursor]) : 1
        let marks = width >= 4
        let rightMark = marks && cursor < characters.count - 1 ? 1 : 0
        var start = 0
        var before = widths[0..<cursor].reduce(0, +)
        while start < cursor, (start > 0 && marks ? 1 : 0) + before + cursorCell + rightMark > width {
            before -= widths[start]
            start += 1
        }
        var out = ""
        var column = 0
        if start > 0, marks {
            out.append(DisplayText.ellipsis)
            column = 1
        }
        var cursorColumn = column
        var index = start
        while index < characters.count {
            if index == cursor { cursorColumn = column }
            let more = index < characters.count - 1 && marks ? 1 : 0
            let reserve = index >= cursor ? more : 0
            if column + widths[index] + reserve > width { break }
            out.append(characters[index])
            column += widths[index]
            index += 1
        }
        if index == cursor, index == characters.count { cursorColumn = column }
        if index < characters.count, marks, column < width {
            out.append(DisplayText.ellipsis)
        }
        return (out, min(cursorColumn, width - 1))
    }
}
