/// `Theme` maps each semantic `Style` to an `Appearance`. The colour theme uses the eight
/// basic colours; the monochrome theme only attributes (bold, dim, reverse, underline), so
/// that every role stays distinguishable without colour.
public struct Theme: Sendable {
    /// `usesColor` is true when the theme sets colours (the backend then allocates colour pairs).
    public let usesColor: Bool
    private let table: [Appearance]

    private init(usesColor: Bool, _ appearance: (Style) -> Appearance) {
        self.usesColor = usesColor
        self.table = Style.allCases.map(appearance)
    }

    /// `appearance(for:)` is how `style` looks in this theme.
    public func appearance(for style: Style) -> Appearance { table[style.rawValue] }

    /// `choose(noColor:terminalHasColors:)` picks monochrome when the `NO_COLOR` variable is
    /// set to a non-empty value (see no-color.org) or the terminal has no colours, else colour.
    public static func choose(noColor: String?, terminalHasColors: Bool) -> Theme {
        if let noColor, !noColor.isEmpty { return .monochrome }
        return terminalHasColors ? .color : .monochrome
    }

    /// `color` is the default colour theme.
    public static let color = Theme(usesColor: true) { style in
        switch style {
        case .normal: .plain
        case .header: Appearance(foreground: .white, background: .blue)
        case .title: Appearance(foreground: .white, background: .blue, bold: true)
        case .columnHeader: Appearance(foreground: .black, background: .green)
        case .selection: Appearance(foreground: .black, background: .cyan)
        case .queued: Appearance(foreground: .blue, bold: true)
        case .running: Appearance(foreground: .cyan, bold: true)
        case .paused: Appearance(foreground: .yellow)
        case .done: Appearance(foreground: .green)
        case .failed: Appearance(foreground: .red, bold: true)
        case .cancelled: Appearance(foreground: .magenta)
        case .barDone: Appearance(foreground: .green)
        case .barTodo: Appearance(dim: true)
        case .label: Appearance(foreground: .cyan)
        case .dim: Appearance(dim: true)
        case .error: Appearance(foreground: .red, bold: true)
        case .message: Appearance(foreground: .green)
        case .hintKey: Appearance(foreground: .black, background: .cyan)
        case .hintText: .plain
        case .dialog: Appearance(foreground: .white, background: .blue)
        case .dialogFrame: Appearance(foreground: .white, background: .blue, bold: true)
        case .field: Appearance(foreground: .black, background: .cyan)
        case .fieldFocused: Appearance(foreground: .black, background: .white)
        case .fieldPlaceholder: Appearance(foreground: .blue, background: .cyan)
        case .dialogError: Appearance(foreground: .yellow, background: .blue, bold: true)
        case .fieldError: Appearance(foreground: .white, background: .red, bold: true)
        case .selectedText: Appearance(foreground: .black, background: .cyan)
        }
    }

    /// `monochrome` is the attribute-only theme used with `NO_COLOR` or on terminals without colour.
    public static let monochrome = Theme(usesColor: false) { style in
        switch style {
        case .normal, .hintText, .dialog, .message, .queued, .paused, .done: .plain
        case .header, .selection, .hintKey, .fieldFocused, .selectedText: Appearance(reverse: true)
        case .fieldError: Appearance(bold: true, reverse: true, underline: true)
        case .title: Appearance(bold: true, reverse: true)
        case .columnHeader: Appearance(bold: true, underline: true)
        case .running, .failed, .label, .error, .dialogFrame, .dialogError, .barDone: Appearance(bold: true)
        case .cancelled, .barTodo, .dim: Appearance(dim: true)
        case .field: Appearance(underline: true)
        case .fieldPlaceholder: Appearance(dim: true, underline: true)
        }
    }
}
