import Foundation

/// `Parameters` is the dictionary of request parameters that serializers encode.
///
/// Keys are sorted when encoded, so the order in which they were written does not matter.
public typealias Parameters = [String: ParameterValue]

/// `ParameterValue` is one value of a parameter tree: the request parameters a serializer
/// encodes, and the body a JSON or property-list response serializer decodes.
///
/// It is the value-type counterpart of the Foundation objects AFNetworking accepts
/// (`NSString`, `NSNumber`, `NSNull`, `NSArray`, `NSSet`, `NSDictionary`, `NSData`,
/// `NSDate`). Every case is literal-expressible except sets, data and dates:
/// `["name": "ferry", "tags": ["a", "b"], "limit": 10, "debug": true, "note": nil]`.
public enum ParameterValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// An integer number.
    case integer(Int)
    /// A floating-point number; NaN and infinities are not valid JSON.
    case double(Double)
    /// A boolean; in a query string it is `1` or `0`, as AFNetworking encodes `NSNumber`.
    case bool(Bool)
    /// No value (`NSNull`): a bare key in a query string, `null` in JSON.
    case null
    /// An ordered list: `key[]=v` pairs in a query string.
    case array([ParameterValue])
    /// An unordered set: `key=v` pairs, sorted, in a query string; not valid JSON.
    case set(Set<ParameterValue>)
    /// A dictionary with string keys: `key[nested]=v` pairs in a query string.
    case dictionary([String: ParameterValue])
    /// Raw bytes: `<data>` in a property list; not valid JSON.
    case data(Data)
    /// A point in time: `<date>` in a property list; not valid JSON.
    case date(Date)
}

extension ParameterValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension ParameterValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) {
        self = .integer(value)
    }
}

extension ParameterValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) {
        self = .double(value)
    }
}

extension ParameterValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension ParameterValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension ParameterValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: ParameterValue...) {
        self = .array(elements)
    }
}

extension ParameterValue: ExpressibleByDictionaryLiteral {
    /// Creates a dictionary; when a key is repeated, the last value wins.
    public init(dictionaryLiteral elements: (String, ParameterValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension ParameterValue {
    /// The string, when the value is `.string`; `nil` otherwise.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The elements, when the value is `.array`; `nil` otherwise.
    public var arrayValue: [ParameterValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// The entries, when the value is `.dictionary`; `nil` otherwise.
    public var dictionaryValue: [String: ParameterValue]? {
        if case .dictionary(let value) = self { value } else { nil }
    }

    /// The value for `key`, when the value is a dictionary holding it; `nil` otherwise.
    public subscript(key: String) -> ParameterValue? {
        dictionaryValue?[key]
    }

    /// The element at `index`, when the value is an array long enough; `nil` otherwise.
    public subscript(index: Int) -> ParameterValue? {
        guard let elements = arrayValue, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}
