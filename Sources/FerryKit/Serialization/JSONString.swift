/// `JSONString` writes a string as a JSON string literal: the one escaping rule of the project
/// (the JSON serializer and the command line's JSON lines share it).
package enum JSONString {
    /// `append(_:to:escapingSlashes:)` appends `string` quoted, with `"`, `\`, control
    /// characters and, when `escapingSlashes` is `true` (Foundation's default), `/` escaped.
    public static func append(_ string: String, to output: inout String, escapingSlashes: Bool = false) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "/": output += escapingSlashes ? "\\/" : "/"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
