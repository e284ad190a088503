/// `HelpAction` is what a key does on the help screen.
public enum HelpAction: Sendable, Hashable, CaseIterable {
    /// `scrollUp`: scroll one line up.
    case scrollUp
    /// `scrollDown`: scroll one line down.
    case scrollDown
    /// `pageUp`: scroll one page up.
    case pageUp
    /// `pageDown`: scroll one page down.
    case pageDown
    /// `close`: close the help screen.
    case close
}
