import Foundation

/// `JSONByteWriter` writes compact JSON text as UTF-8 bytes, a value at a time: FerryRPC's
/// `JSONValue` serializes through it, and its status lists and the command line's JSON lines
/// (`ferry list --json`, `--json` events) are written with it directly, with no value in
/// between (a list of 1,000 tasks is 3,000 objects a front end asks for every second; made as
/// dictionaries, sorted and written, they cost several times the journal read; a million
/// lines of `ferry list --json` built as Strings a scalar at a time took 20 s).
///
/// Commas are placed by the writer; the caller opens and closes containers and writes a
/// `key(_:)` before each member's value. Keys are written in the order given.
package struct JSONByteWriter: Sendable {
    /// `bytes` is the text written so far.
    package private(set) var bytes: [UInt8] = []
    private var afterValue = false

    /// `init(capacity:)` makes an empty writer with room for `capacity` bytes.
    package init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// `data` is the text written so far.
    package var data: Data { Data(bytes) }

    package mutating func beginObject() { open(UInt8(ascii: "{")) }
    package mutating func endObject() { close(UInt8(ascii: "}")) }
    package mutating func beginArray() { open(UInt8(ascii: "[")) }
    package mutating func endArray() { close(UInt8(ascii: "]")) }

    /// `key(_:)` writes a member's name; its value comes next.
    package mutating func key(_ name: String) {
        separate()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        afterValue = false
    }

    package mutating func string(_ value: String) {
        separate()
        writeString(value)
        afterValue = true
    }

    /// `integerString(_:)` writes an integer as a string, as aria2 sends every number.
    package mutating func integerString(_ value: Int64) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        writeDigits(value)
        bytes.append(UInt8(ascii: "\""))
        afterValue = true
    }

    /// `literal(_:)` writes JSON text as it is: a number, `true`, `null`, or a value written
    /// earlier.
    package mutating func literal<Text: Collection<UInt8>>(_ text: Text) {
        separate()
        bytes.append(contentsOf: text)
        afterValue = true
    }

    /// `integer(_:)` writes an integer as a JSON number.
    package mutating func integer(_ value: Int64) {
        separate()
        writeDigits(value)
        afterValue = true
    }

    /// `number(_:)` writes a number; one that is not finite (JSON has none) as `null`.
    package mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        literal(String(value).utf8)
    }

    /// `null()` writes `null`.
    package mutating func null() {
        literal(fixed: "null")
    }

    /// `boolean(_:)` writes `true` or `false`.
    package mutating func boolean(_ value: Bool) {
        literal(fixed: value ? "true" : "false")
    }

    /// `literal(fixed:)` writes fixed JSON text (a keyword) as it is.
    private mutating func literal(fixed text: StaticString) {
        separate()
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        afterValue = true
    }

    /// `writeDigits(_:)` writes `value` in decimal (a `String` of up to 20 digits is stored
    /// inline: nothing is allocated).
    private mutating func writeDigits(_ value: Int64) {
        bytes.append(contentsOf: String(value).utf8)
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        afterValue = false
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        afterValue = true
    }

    private mutating func separate() {
        if afterValue { bytes.append(UInt8(ascii: ",")) }
    }

    /// `writeString(_:)` writes `value` quoted, escaping `"`, `\`, the C0 and C1 control
    /// characters, DEL, U+2028 and U+2029 (the last two end lines in JavaScript). Runs of
    /// bytes that need no escape are copied whole.
    private mutating func writeString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings (names, URLs, states) are printable ASCII: copied whole after one scan.
        let plain = value.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        var value = value
        value.withUTF8 { utf8 in
            var copied = 0  // bytes of `utf8` before this index are written
            var index = 0
            func escape(_ text: String, skipping count: Int) {
                bytes.append(contentsOf: utf8[copied..<index])
                bytes.append(contentsOf: text.utf8)
                index += count
                copied = index
            }
            while index < utf8.count {
                switch utf8[index] {
                case UInt8(ascii: "\""): escape("\\\"", skipping: 1)
                case UInt8(ascii: "\\"): escape("\\\\", skipping: 1)
                case UInt8(ascii: "\n"): escape("\\n", skipping: 1)
                case UInt8(ascii: "\r"): escape("\\r", skipping: 1)
                case UInt8(ascii: "\t"): escape("\\t", skipping: 1)
                case 0..<0x20, 0x7F: escape(JSONByteWriter.unicodeEscape(UInt32(utf8[index])), skipping: 1)
                case 0xC2 where index + 1 < utf8.count && (0x80...0x9F).contains(utf8[index + 1]):
                    escape(JSONByteWriter.unicodeEscape(UInt32(utf8[index + 1])), skipping: 2)
                case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && (0xA8...0xA9).contains(utf8[index + 2]):
                    escape(JSONByteWriter.unicodeEscape(0x2000 + UInt32(utf8[index + 2] & 0x3F)), skipping: 3)
                default: index += 1
                }
            }
            bytes.append(contentsOf: utf8[copied...])
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `unicodeEscape(_:)` is `\u` and the four lowercase hex digits of `value`.
    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
