/// `EditAction` is a line-editing operation in a dialog field or the filter prompt.
public enum EditAction: Sendable, Hashable, CaseIterable {
    /// `left`: move the cursor one character left.
    case left
    /// `right`: move the cursor one character right.
    case right
    /// `home`: move the cursor to the start.
    case home
    /// `end`: move the cursor to the end.
    case end
    /// `backspace`: delete the character before the cursor.
    case backspace
    /// `deleteForward`: delete the character under the cursor.
    case deleteForward
    /// `deleteToStart`: delete everything before the cursor.
    case deleteToStart
    /// `deleteToEnd`: delete everything from the cursor on.
    case deleteToEnd
    /// `deleteWordBackward`: delete the word before the cursor.
    case deleteWordBackward
}
