/// `HelpAction` is what a key does on the help screen.
public enum HelpAction: Sendable, Hashable, CaseIterable {
    /// Scroll one line up.
    case scrollUp
    /// Scroll one line down.
    case scrollDown
    /// Scroll one page up.
    case pageUp
    /// Scroll one page down.
    case pageDown
    /// Close the help screen.
    case close
}
