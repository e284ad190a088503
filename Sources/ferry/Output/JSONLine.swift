import FerryKit

/// `JSONLine` builds one JSON object on one line, field by field, without Foundation's
/// encoders (listing 100,000 tasks must stay fast).
struct JSONLine {
    private var text = "{"
    private var first = true

    /// `add(_:_:)` adds a string field; `nil` is written as `null`.
    mutating func add(_ key: String, _ value: String?) {
        key_(key)
        if let value { JSONLine.appendString(value, to: &text) } else { text += "null" }
    }

    /// `add(_:_:)` adds an integer field; `nil` is written as `null`.
    mutating func add(_ key: String, _ value: Int64?) {
        key_(key)
        text += value.map(String.init) ?? "null"
    }

    /// `add(_:_:)` adds an integer field.
    mutating func add(_ key: String, _ value: Int) {
        add(key, Int64(value))
    }

    /// `add(_:_:)` adds a boolean field.
    mutating func add(_ key: String, _ value: Bool) {
        key_(key)
        text += value ? "true" : "false"
    }

    /// `add(_:_:)` adds a number field.
    mutating func add(_ key: String, _ value: Double) {
        key_(key)
        text += value.isFinite ? String(value) : "null"
    }

    /// `add(_:strings:)` adds an array of strings.
    mutating func add(_ key: String, strings: [String]) {
        key_(key)
        text += "["
        for (index, value) in strings.enumerated() {
            if index > 0 { text += "," }
            JSONLine.appendString(value, to: &text)
        }
        text += "]"
    }

    /// `add(_:lines:)` adds an array of objects, each a finished `JSONLine`.
    mutating func add(_ key: String, lines: [JSONLine]) {
        key_(key)
        text += "[" + lines.map(\.line).joined(separator: ",") + "]"
    }

    /// `line` is the finished object, without a newline.
    var line: String { text + "}" }

    private mutating func key_(_ key: String) {
        if !first { text += "," }
        first = false
        JSONLine.appendString(key, to: &text)
        text += ":"
    }

    /// `appendString(_:to:)` writes `value` as a JSON string (FerryKit's `JSONString`).
    static func appendString(_ value: String, to text: inout String) {
        JSONString.append(value, to: &text)
    }
}
