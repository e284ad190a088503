/// `Style` is the semantic role of a cell; a `Theme` decides how each role looks.
///
/// The renderer only speaks in roles, so the same grid can be shown in colour, in
/// monochrome, or compared in tests.
public enum Style: Int, Sendable, Hashable, CaseIterable {
    /// `normal`: ordinary text.
    case normal
    /// `header`: the header bar.
    case header
    /// `title`: the program name in the header bar.
    case title
    /// `columnHeader`: the table's column titles.
    case columnHeader
    /// `selection`: the selected table row.
    case selection
    /// `queued`: a queued task's state glyph.
    case queued
    /// `running`: a running task's state glyph.
    case running
    /// `paused`: a paused task's state glyph.
    case paused
    /// `done`: a finished task's state glyph.
    case done
    /// `failed`: a failed task's state glyph.
    case failed
    /// `cancelled`: a cancelled task's state glyph.
    case cancelled
    /// `barDone`: the completed part of a progress bar.
    case barDone
    /// `barTodo`: the remaining part of a progress bar.
    case barTodo
    /// `label`: labels in the detail pane and dialogs.
    case label
    /// `dim`: secondary text: borders, placeholders, empty-state notes.
    case dim
    /// `error`: an error text.
    case error
    /// `message`: an informational message in the message line.
    case message
    /// `hintKey`: a key name in the key hints.
    case hintKey
    /// `hintText`: a key hint's description and the hint line's background.
    case hintText
    /// `dialog`: the body of a dialog or the help screen.
    case dialog
    /// `dialogFrame`: a dialog's title and frame.
    case dialogFrame
    /// `field`: an input field that does not have the focus.
    case field
    /// `fieldFocused`: the input field that has the focus.
    case fieldFocused
    /// `fieldPlaceholder`: the placeholder text of an empty, unfocused field.
    case fieldPlaceholder
    /// `dialogError`: a validation problem inside a dialog.
    case dialogError
    /// `fieldError`: the input field a failed Enter found a problem in.
    case fieldError
    /// `selectedText`: a prompt's text while it is selected (typing replaces it).
    case selectedText
}
