/// `ParameterScanner` reads tokens, `=`, `;` and quoted strings of a header's parameter list.
struct ParameterScanner {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    /// Skips spaces, then `character` if it is next; returns whether it was.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        skipSpaces()
        guard index < scalars.count, scalars[index] == character else { return false }
        index += 1
        return true
    }

    /// A run of characters up to a space, `;`, `=` or quote (lenient about what a token may hold).
    mutating func token() -> String {
        skipSpaces()
        var result = String.UnicodeScalarView()
        while index < scalars.count, !" \t;=\"".unicodeScalars.contains(scalars[index]) {
            result.append(scalars[index])
            index += 1
        }
        return String(result)
    }

    /// A quoted string (backslash escapes removed) or everything up to the next `;`, trimmed.
    mutating func value() -> String {
        skipSpaces()
        var result = String.UnicodeScalarView()
        if index < scalars.count, scalars[index] == "\"" {
            index += 1
            while index < scalars.count, scalars[index] != "\"" {
                if scalars[index] == "\\", index + 1 < scalars.count { index += 1 }
                result.append(scalars[index])
                index += 1
            }
            if index < scalars.count { index += 1 }
            skipUntilSemicolon()
            return String(result)
        }
        while index < scalars.count, scalars[index] != ";" {
            result.append(scalars[index])
            index += 1
        }
        return String(result).trimmingCharacters(in: .whitespaces)
    }

    /// Moves to the next `;` (or the end).
    mutating func skipUntilSemicolon() {
        while index < scalars.count, scalars[index] != ";" { index += 1 }
    }

    private mutating func skipSpaces() {
        while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
    }
}
