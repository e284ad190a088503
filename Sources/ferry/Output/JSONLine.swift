import FerryKit

/// `JSONLine` builds one JSON object on one line, field by field, as UTF-8 bytes
/// (`JSONByteWriter`, the writer of the RPC answers): listing a million tasks must stay fast.
struct JSONLine {
    private var writer = JSONByteWriter(capacity: 512)

    init() {
        writer.beginObject()
    }

    /// `add(_:_:)` adds a string field; `nil` is written as `null`.
    mutating func add(_ key: String, _ value: String?) {
        writer.key(key)
        if let value { writer.string(value) } else { writer.null() }
    }

    /// `add(_:_:)` adds an integer field; `nil` is written as `null`.
    mutating func add(_ key: String, _ value: Int64?) {
        writer.key(key)
        if let value { writer.integer(value) } else { writer.null() }
    }

    /// `add(_:_:)` adds an integer field.
    mutating func add(_ key: String, _ value: Int) {
        add(key, Int64(value))
    }

    /// `add(_:_:)` adds a boolean field.
    mutating func add(_ key: String, _ value: Bool) {
        writer.key(key)
        writer.boolean(value)
    }

    /// `add(_:_:)` adds a number field.
    mutating func add(_ key: String, _ value: Double) {
        writer.key(key)
        writer.number(value)
    }

    /// `add(_:strings:)` adds an array of strings.
    mutating func add(_ key: String, strings: [String]) {
        writer.key(key)
        writer.beginArray()
        for value in strings { writer.string(value) }
        writer.endArray()
    }

    /// `add(_:lines:)` adds an array of objects, each a finished `JSONLine`.
    mutating func add(_ key: String, lines: [JSONLine]) {
        writer.key(key)
        writer.beginArray()
        for line in lines { writer.literal(line.bytes) }
        writer.endArray()
    }

    /// `bytes` is the finished object as UTF-8, without a newline.
    var bytes: [UInt8] {
        var finished = writer
        finished.endObject()
        return finished.bytes
    }

    /// `line` is the finished object, without a newline.
    var line: String { String(decoding: bytes, as: UTF8.self) }

    /// `write(to:)` adds the finished object and a newline to `output`.
    func write(to output: inout OutputBuffer) {
        output.append(lineBytes: bytes)
    }
}
