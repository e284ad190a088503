/// `TextWrap` cuts untrusted text into screen lines: it keeps the text's own line breaks,
/// turns tabs into spaces, replaces what must not reach the terminal (`DisplayText`) and
/// breaks lines longer than the width between characters (a wide character never straddles).
public enum TextWrap {
    /// `tabWidth` is the number of spaces a tab becomes: 4.
    public static let tabWidth = 4

    /// `lines(_:width:)` is `text` as lines of at most `width` columns (at least 1).
    public static func lines(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var result: [String] = []
        let separators: Set<Character> = ["\n", "\r\n", "\r"]
        for paragraph in text.split(omittingEmptySubsequences: false, whereSeparator: { separators.contains($0) }) {
            var expanded = ""
            for character in paragraph {
                if character == "\t" { expanded += String(repeating: " ", count: tabWidth) } else { expanded.append(character) }
            }
            var line = ""
            var used = 0
            for character in DisplayText.sanitize(expanded) {
                let columns = DisplayWidth.of(character)
                if used + columns > width, !line.isEmpty {
                    result.append(line)
                    line = ""
                    used = 0
                }
                line.append(character)
                used += columns
            }
            result.append(line)
        }
        return result
    }
}
