/// `JSONWriter` writes a ``ParameterValue`` as JSON text, as `JSONSerialization` would.
///
/// Numbers: integers in decimal; doubles in their shortest exact form with a trailing `.0`
/// dropped (`1.0` → `1`, `0.1` → `0.1`); NaN and infinities are errors. Strings escape `"`,
/// `\`, control characters and (unless told otherwise) `/`; other characters are written as
/// UTF-8. Sets, data and dates have no JSON form and are errors.
struct JSONWriter {
    var options: JSONWritingOptions

    /// The JSON text for `value`, or ``SerializationReason/encodingFailed(_:)`` naming the first
    /// value that has no JSON form and where it is.
    func string(for value: ParameterValue) throws(FerryError) -> String {
        if !options.contains(.fragmentsAllowed) {
            switch value {
            case .array, .dictionary: break
            default: throw .serialization(.encodingFailed("the top level of a JSON body must be an array or a dictionary"))
            }
        }
        var output = ""
        try write(value, path: "", indent: 0, to: &output)
        return output
    }

    private func write(_ value: ParameterValue, path: String, indent: Int, to output: inout String) throws(FerryError) {
        switch value {
        case .string(let string):
            writeString(string, to: &output)
        case .integer(let integer):
            output += String(integer)
        case .double(let double):
            guard double.isFinite else {
                throw .serialization(.encodingFailed("\(double) is not a valid JSON number (at \(Self.shown(path)))"))
            }
            var text = double.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            output += text
        case .bool(let bool):
            output += bool ? "true" : "false"
        case .null:
            output += "null"
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "[]"
                return
            }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                newline(indent + 1, to: &output)
                try write(element, path: "\(path)[\(index)]", indent: indent + 1, to: &output)
            }
            newline(indent, to: &output)
            output += "]"
        case .dictionary(let entries):
            guard !entries.isEmpty else {
                output += "{}"
                return
            }
            output += "{"
            for (index, key) in entries.keys.sorted(by: ParameterValue.precedes).enumerated() {
                if index > 0 { output += "," }
                newline(indent + 1, to: &output)
                writeString(key, to: &output)
                output += options.contains(.prettyPrinted) ? " : " : ":"
                if let nested = entries[key] {
                    try write(nested, path: path.isEmpty ? key : "\(path).\(key)", indent: indent + 1, to: &output)
                }
            }
            newline(indent, to: &output)
            output += "}"
        case .set:
            throw .serialization(.encodingFailed("a set has no JSON form (at \(Self.shown(path)))"))
        case .data:
            throw .serialization(.encodingFailed("data has no JSON form (at \(Self.shown(path)))"))
        case .date:
            throw .serialization(.encodingFailed("a date has no JSON form (at \(Self.shown(path)))"))
        }
    }

    private func newline(_ indent: Int, to output: inout String) {
        guard options.contains(.prettyPrinted) else { return }
        output += "\n"
        output += String(repeating: "  ", count: indent)
    }

    private func writeString(_ string: String, to output: inout String) {
        JSONString.append(string, to: &output, escapingSlashes: !options.contains(.withoutEscapingSlashes))
    }

    private static func shown(_ path: String) -> String {
        path.isEmpty ? "the top level" : path
    }
}
