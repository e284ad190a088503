/// `StatusMessage` is a one-line note shown in the message line until the next key press.
public struct StatusMessage: Sendable, Hashable {
    /// `text` is the note; it is sanitised and truncated when drawn.
    public var text: String
    /// `isError` shows the note in the error style. `false` by default.
    public var isError: Bool

    /// `init(_:isError:)` makes a message; informational by default.
    public init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}
