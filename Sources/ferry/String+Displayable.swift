extension String {
    /// `displayable` is the string with control and bidi/format characters shown as
    /// `\u{..}` escapes, so a name or URL printed to a terminal cannot move the cursor or
    /// reorder the line (catalogue 20).
    var displayable: String {
        // Printable ASCII (most paths and URLs) has nothing to escape.
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return self }
        var out = ""
        for scalar in unicodeScalars {
            let category = scalar.properties.generalCategory
            if category == .control || category == .format {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
