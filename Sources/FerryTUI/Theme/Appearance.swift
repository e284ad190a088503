/// `Appearance` is how a `Style` looks on a terminal: colours and attributes.
public struct Appearance: Sendable, Hashable {
    /// `foreground` is the text colour; `nil` keeps the terminal's default.
    public var foreground: TerminalColor?
    /// `background` is the cell colour; `nil` keeps the terminal's default.
    public var background: TerminalColor?
    /// `bold` draws the text bold. `false` by default.
    public var bold: Bool
    /// `dim` draws the text faint. `false` by default.
    public var dim: Bool
    /// `reverse` swaps foreground and background. `false` by default.
    public var reverse: Bool
    /// `underline` underlines the text. `false` by default.
    public var underline: Bool

    /// `init(foreground:background:bold:dim:reverse:underline:)` makes an appearance; the
    /// terminal's defaults by default.
    public init(
        foreground: TerminalColor? = nil, background: TerminalColor? = nil,
        bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    /// `plain` is the terminal's default look.
    public static let plain = Appearance()
}
