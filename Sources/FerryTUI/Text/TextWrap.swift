/// `TextWrap` cuts untrusted text into screen lines: it keeps the text's own line breaks,
/// turns tabs into spaces, replaces what must not reach the terminal (`DisplayText`) and
/// breaks lines longer than the width at their last space, else between characters (a wide
/// character never straddles).
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
            var line: [Character] = []
            var used = 0
            // The index in `line` of its last space, where a long line is best broken.
            var lastSpace: Int?
            for character in DisplayText.sanitize(expanded) {
                let columns = DisplayWidth.of(character)
                while used + columns > width, !line.isEmpty {
                    if character == " " {
                        break
                    } else if let space = lastSpace, space > 0 {
                        result.append(String(line[..<space]))
                        line = Array(line[(space + 1)...])
                        used = line.reduce(0) { $0 + DisplayWidth.of($1) }
                    } else {
                        result.append(String(line))
                        line = []
                        used = 0
                    }
                    lastSpace = nil
                }
                if used + columns > width, !line.isEmpty {
                    // A space where the line is full ends it and is dropped.
                    result.append(String(line))
                    line = []
                    used = 0
                    lastSpace = nil
                    continue
                }
                if character == " " { lastSpace = line.count }
                line.append(character)
                used += columns
            }
            result.append(String(line))
        }
        return result
    }
}
