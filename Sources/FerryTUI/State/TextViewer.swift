/// `TextViewer` is the full-text view's state: a title, the text (lines separated by line
/// breaks, wrapped to the screen when drawn) and the first line shown.
public struct TextViewer: Sendable, Hashable {
    /// `title` is shown in the frame.
    public let title: String
    /// `text` is shown whole, line breaks kept.
    public let text: String
    /// `scroll` is the index of the first wrapped line shown.
    public var scroll: Int

    /// `init(title:text:scroll:)` makes a view at the top by default.
    public init(title: String, text: String, scroll: Int = 0) {
        self.title = title
        self.text = text
        self.scroll = scroll
    }

    /// `lines(width:)` are the text's lines wrapped to `width` columns.
    public func lines(width: Int) -> [String] { TextWrap.lines(text, width: width) }
}
