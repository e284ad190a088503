/// `TextAction` is what a key does in the full-text view.
public enum TextAction: Sendable, Hashable, CaseIterable {
    /// `scrollUp`: scroll one line up.
    case scrollUp
    /// `scrollDown`: scroll one line down.
    case scrollDown
    /// `pageUp`: scroll one page up.
    case pageUp
    /// `pageDown`: scroll one page down.
    case pageDown
    /// `top`: go to the first line.
    case top
    /// `bottom`: go to the last page.
    case bottom
    /// `close`: close the view.
    case close
}
