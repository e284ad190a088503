extension String {
    /// `displayable` is the string with control and bidi/format characters shown as
    /// `\u{..}` escapes, so a name or URL printed to a terminal cannot move the cursor or
    /// reorder the line (catalogue 20). Every text from the network that Ferry prints goes
    /// through it (catalogue 40).
    var displayable: String {
        // Printable ASCII (most paths and URLs) has nothing to escape.
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return self }
        return String.escaping(unicodeScalars, keepingLineBreaks: false)
    }

    /// `displayableLines` is ``displayable`` for each line: the line breaks (LF) stay, so a
    /// message of several lines keeps them; every other control character is escaped.
    var displayableLines: String {
        if utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A }) { return self }
        return String.escaping(unicodeScalars, keepingLineBreaks: true)
    }

    private static func escaping(_ scalars: String.UnicodeScalarView, keepingLineBreaks: Bool) -> String {
        var out = ""
        for scalar in scalars {
            let category = scalar.properties.generalCategory
            if keepingLineBreaks && scalar == "\n" {
                out.unicodeScalars.append(scalar)
            } else if category == .control || category == .format || category == .lineSeparator || category == .paragraphSeparator {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
