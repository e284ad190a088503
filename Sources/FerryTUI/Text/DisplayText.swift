/// `DisplayText` prepares untrusted text for the screen: it replaces characters that could
/// disturb the terminal and cuts text to a number of columns.
public enum DisplayText {
    /// `placeholder` replaces control and bidirectional-control characters: U+FFFD.
    public static let placeholder: Unicode.Scalar = "\u{FFFD}"

    /// `ellipsis` marks text cut short: U+2026, one column wide.
    public static let ellipsis: Character = "\u{2026}"

    /// `isUnsafe(_:)` is true for scalars that must not reach the terminal: C0 and C1 controls,
    /// DEL, line and paragraph separators and the bidirectional marks, embeddings, overrides
    /// and isolates (U+200E, U+200F, U+061C, U+202A-U+202E, U+2066-U+2069).
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        if value < 0x61C { return false }
        switch value {
        case 0x61C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
            return true
        default:
            return false
        }
    }

    /// `sanitize(_:)` returns `text` with every unsafe scalar replaced by `placeholder`.
    public static func sanitize(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(isUnsafe(scalar) ? placeholder : scalar)
        }
        return String(scalars)
    }

    /// `truncate(_:toWidth:)` returns `text` cut to at most `width` columns, ending in an
    /// ellipsis when cut; a wide character that would straddle the limit is left out whole.
    public static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        guard DisplayWidth.of(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let columns = DisplayWidth.of(character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        result.append(ellipsis)
        return result
    }

    /// `fit(_:toWidth:alignRight:)` truncates `text` and pads it with spaces to exactly
    /// `width` columns; left-aligned by default.
    public static func fit(_ text: String, toWidth width: Int, alignRight: Bool = false) -> String {
        guard width > 0 else { return "" }
        let cut = truncate(text, toWidth: width)
        let padding = String(repeating: " ", count: max(0, width - DisplayWidth.of(cut)))
        return alignRight ? padding + cut : cut + padding
    }
}
