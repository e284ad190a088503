/// `FormField` is one labelled input line of a dialog.
public struct FormField: Sendable, Hashable {
    /// `label` names the field left of the input.
    public var label: String
    /// `placeholder` is shown dimmed while the field is empty and unfocused.
    public var placeholder: String
    /// `editor` holds the text and the cursor.
    public var editor: LineEditor

    /// `init(label:placeholder:text:)` makes a field; it is empty by default.
    public init(label: String, placeholder: String = "", text: String = "") {
        self.label = label
        self.placeholder = placeholder
        self.editor = LineEditor(text)
    }

    /// `value` is the field's text without leading and trailing whitespace.
    public var value: String { editor.text.trimmingSpaces() }
}

extension String {
    /// `trimmingSpaces()` drops leading and trailing whitespace and line breaks.
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
