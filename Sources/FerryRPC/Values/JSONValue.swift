import FerryKit
import Foundation

/// `JSONValue` is one JSON value as JSON-RPC carries it: requests are decoded into it and
/// answers are built from it.
///
/// Integers and fractions are kept apart (`integer`, `number`) so a position or an offset
/// is read exactly. `serialized()` writes compact JSON with the keys of objects sorted, so
/// answers are the same from run to run (text made by a `JSONByteWriter` keeps that order too).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    /// `encoded` is JSON text written earlier (`JSONByteWriter`), sent as it is: answers made
    /// without building values (status lists). `parse(_:)` never makes one.
    case encoded(Data)

    /// `parse(_:)` decodes one JSON text; `nil` when it is not JSON.
    ///
    /// Read by FerryKit's `JSONParser` (the response serializers'): decoding through `Codable`
    /// tried each type in turn, and its failed tries cost a tenth of a status call.
    public static func parse(_ data: Data) -> JSONValue? {
        guard let parsed = try? JSONParser.parse(Array(data), allowsFragments: true) else { return nil }
        return JSONValue(parsed)
    }

    /// `init(_:)` is a parsed value as a `JSONValue` (the parser makes no sets, data or dates).
    private init(_ parsed: ParameterValue) {
        switch parsed {
        case .string(let text): self = .string(text)
        case .integer(let value): self = .integer(Int64(value))
        case .double(let value): self = .number(value)
        case .bool(let value): self = .bool(value)
        case .array(let values): self = .array(values.map(JSONValue.init))
        case .dictionary(let members): self = .object(members.mapValues(JSONValue.init))
        case .null, .set, .data, .date: self = .null
        }
    }

    /// `string` is the text of a string value, else `nil`.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// `integerValue` is an integer, or a string of digits (aria2's clients send both), else `nil`.
    public var integerValue: Int64? {
        switch self {
        case .integer(let value): return value
        case .number(let value) where value.rounded() == value && abs(value) < 9e15: return Int64(value)
        case .string(let text): return Int64(text)
        default: return nil
        }
    }

    /// `arrayValue` is the elements of an array, else `nil`.
    public var arrayValue: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// `objectValue` is the members of an object, else `nil`.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// `serialized()` is the compact JSON text of the value (UTF-8).
    public func serialized() -> Data {
        var writer = JSONByteWriter()
        write(into: &writer)
        return writer.data
    }

    private func write(into writer: inout JSONByteWriter) {
        switch self {
        case .null: writer.null()
        case .bool(let value): writer.boolean(value)
        case .integer(let value): writer.integer(value)
        case .number(let value): writer.number(value)
        case .string(let value): writer.string(value)
        case .array(let values):
            writer.beginArray()
            for value in values {
                value.write(into: &writer)
            }
            writer.endArray()
        case .object(let members):
            writer.beginObject()
            for member in members.sorted(by: { $0.key < $1.key }) {
                writer.key(member.key)
                member.value.write(into: &writer)
            }
            writer.endObject()
        case .encoded(let text):
            writer.literal(text)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue {
    /// `joiningArrays(_:_:)` is the JSON array of `first`'s elements then `second`'s, both
    /// arrays written earlier (`encoded`, as status lists are: compact, `[` to `]`); `nil`
    /// for anything else.
    static func joiningArrays(_ first: JSONValue, _ second: JSONValue) -> JSONValue? {
        guard case .encoded(let head) = first, case .encoded(let tail) = second,
              head.first == UInt8(ascii: "["), head.last == UInt8(ascii: "]"),
              tail.first == UInt8(ascii: "["), tail.last == UInt8(ascii: "]") else { return nil }
        if head.count == 2 { return second }
        if tail.count == 2 { return first }
        var joined = Data(capacity: head.count + tail.count)
        joined.append(head.dropLast())
        joined.append(UInt8(ascii: ","))
        joined.append(tail.dropFirst())
        return .encoded(joined)
    }
}
