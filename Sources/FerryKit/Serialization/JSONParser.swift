/// `JSONParser` reads RFC 8259 JSON from UTF-8 bytes into a ``ParameterValue``, as strictly as
/// `JSONSerialization`: no comments, trailing commas, NaN, leading zeros, unescaped control
/// characters or unpaired surrogates.
///
/// Integers that fit an `Int` become `.integer`; other numbers `.double` (a number too large
/// for a `Double` is an error). A repeated key keeps its last value. Nesting deeper than
/// ``maximumDepth`` is an error rather than a stack overflow. Errors name the byte offset.
package struct JSONParser {
    /// The deepest nesting of arrays and dictionaries accepted, `512`.
    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The value in `bytes`; unless `allowsFragments`, the top level must be an array or a dictionary.
    package static func parse(_ bytes: [UInt8], allowsFragments: Bool) throws(FerryError) -> ParameterValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        if !allowsFragments, parser.peek != UInt8(ascii: "["), parser.peek != UInt8(ascii: "{") {
            throw .serialization(.invalidJSON("the text does not start with an array or an object, and fragments are not allowed"))
        }
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else {
            throw parser.error("unexpected \(parser.shownByte) after the end of the value")
        }
        return value
    }

    private var peek: UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private var shownByte: String {
        guard let byte = peek else { return "end of data" }
        if byte >= 0x21, byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private func error(_ message: String) -> FerryError {
        .serialization(.invalidJSON("\(message) at offset \(index)"))
    }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            index += 1
        }
    }

    private mutating func parseValue(depth: Int) throws(FerryError) -> ParameterValue {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        guard let byte = peek else { throw error("unexpected end of data") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected \(shownByte)")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(FerryError) {
        let expected = Array(literal.utf8)
        guard bytes.count - index >= expected.count, bytes[index..<(index + expected.count)].elementsEqual(expected) else {
            throw error("invalid literal (expected \(literal))")
        }
        index += expected.count
    }

    private mutating func parseObject(depth: Int) throws(FerryError) -> ParameterValue {
        index += 1
        var entries: [String: ParameterValue] = [:]
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            index += 1
            return .dictionary(entries)
        }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a string key, found \(shownByte)") }
            let key = try parseString()
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw error("expected ':' after a key, found \(shownByte)") }
            index += 1
            skipWhitespace()
            entries[key] = try parseValue(depth: depth + 1)
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .dictionary(entries)
            default: throw error("expected ',' or '}' in an object, found \(shownByte)")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(FerryError) -> ParameterValue {
        index += 1
        var elements: [ParameterValue] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw error("expected ',' or ']' in an array, found \(shownByte)")
            }
        }
    }

    private mutating func parseString() throws(FerryError) -> String {
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek else { throw error("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validating: utf8, as: UTF8.self) else { throw error("invalid UTF-8 in the string ending") }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &utf8)
            case 0x00..<0x20:
                throw error("unescaped control character in a string")
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(FerryError) {
        guard let byte = peek else { throw error("unterminated escape") }
        index += 1
        let simple: UInt8? = switch byte {
        case UInt8(ascii: "\""): UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): UInt8(ascii: "\\")
        case UInt8(ascii: "/"): UInt8(ascii: "/")
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
        if let simple {
            utf8.append(simple)
            return
        }
        guard byte == UInt8(ascii: "u") else { throw error("invalid escape '\\\(Character(Unicode.Scalar(byte)))'") }
        var value = try parseHex4()
        if (0xD800..<0xDC00).contains(value) {
            guard peek == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw error("unpaired UTF-16 surrogate")
            }
            index += 2
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired UTF-16 surrogate") }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(value) {
            throw error("unpaired UTF-16 surrogate")
        }
        guard let scalar = Unicode.Scalar(value) else { throw error("invalid Unicode escape") }
        utf8.append(contentsOf: String(Character(scalar)).utf8)
    }

    private mutating func parseHex4() throws(FerryError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in a \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(FerryError) -> ParameterValue {
        let start = index
        var isInteger = true
        if peek == UInt8(ascii: "-") { index += 1 }
        switch peek {
        case UInt8(ascii: "0"):
            index += 1
            if let next = peek, isDigit(next) { throw error("leading zero in a number") }
        case let byte? where isDigit(byte):
            skipDigits()
        default:
            throw error("expected a digit, found \(shownByte)")
        }
        if peek == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let byte = peek, isDigit(byte) else { throw error("expected a digit after '.', found \(shownByte)") }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard let byte = peek, isDigit(byte) else { throw error("expected a digit in the exponent, found \(shownByte)") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int(text) {
            return .integer(integer)
        }
        guard let double = Double(text), double.isFinite else {
            index = start
            throw error("number \(text) is out of range")
        }
        return .double(double)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while let byte = peek, isDigit(byte) {
            index += 1
        }
    }
}
