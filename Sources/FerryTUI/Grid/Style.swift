/// `Style` is the semantic role of a cell; a `Theme` decides how each role looks.
///
/// The renderer only speaks in roles, so the same grid can be shown in colour, in
/// monochrome, or compared in tests.
public enum Style: Int, Sendable, Hashable, CaseIterable {
    /// Ordinary text.
    case normal
    /// The header bar.
    case header
    /// The program name in the header bar.
    case title
    /// The table's column titles.
    case columnHeader
    /// The selected table row.
    case selection
    /// A queued task's state glyph.
    case queued
    /// A running task's state glyph.
    case running
    /// A paused task's state glyph.
    case paused
    /// A finished task's state glyph.
    case done
    /// A failed task's state glyph.
    case failed
    /// A cancelled task's state glyph.
    case cancelled
    /// The completed part of a progress bar.
    case barDone
    /// The remaining part of a progress bar.
    case barTodo
    /// Labels in the detail pane and dialogs.
    case label
    /// Secondary text: borders, placeholders, empty-state notes.
    case dim
    /// An error text.
    case error
    /// An informational message in the message line.
    case message
    /// A key name in the key hints.
    case hintKey
    /// A key hint's description and the hint line's background.
    case hintText
    /// The body of a dialog or the help screen.
    case dialog
    /// A dialog's title and frame.
    case dialogFrame
    /// An input field that does not have the focus.
    case field
    /// The input field that has the focus.
    case fieldFocused
    /// The placeholder text of an empty, unfocused field.
    case fieldPlaceholder
    /// A validation problem inside a dialog.
    case dialogError
}
