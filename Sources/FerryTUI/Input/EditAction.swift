/// `EditAction` is a line-editing operation in a dialog field or the filter prompt.
public enum EditAction: Sendable, Hashable, CaseIterable {
    /// Move the cursor one character left.
    case left
    /// Move the cursor one character right.
    case right
    /// Move the cursor to the start.
    case home
    /// Move the cursor to the end.
    case end
    /// Delete the character before the cursor.
    case backspace
    /// Delete the character under the cursor.
    case deleteForward
    /// Delete everything before the cursor.
    case deleteToStart
    /// Delete everything from the cursor on.
    case deleteToEnd
    /// Delete the word before the cursor.
    case deleteWordBackward
}
