/// `QueryString` encodes parameters as an `application/x-www-form-urlencoded` query string,
/// exactly as AFNetworking's `AFQueryStringFromParameters` does.
///
/// - Dictionary keys are sorted at every level (ascending, by UTF-16 code units, as
///   `-[NSString compare:]`), and nested dictionaries become `a[b]=v`.
/// - Arrays keep their order and become `a[]=v` for each element.
/// - Sets are sorted by their elements' descriptions and repeat the key: `a=v1&a=v2`.
/// - Null is the bare key, without `=`. Booleans are `1` and `0`.
/// - Keys and values are escaped by ``percentEscaped(_:)``.
public enum QueryString {
    /// The query string for `parameters`, pairs joined with `&`; empty for no parameters.
    public static func string(from parameters: Parameters) -> String {
        pairs(from: parameters).map(\.urlEncodedStringValue).joined(separator: "&")
    }

    /// The pairs for a whole parameter dictionary, in the order they are written.
    public static func pairs(from parameters: Parameters) -> [QueryStringPair] {
        var result: [QueryStringPair] = []
        for key in parameters.keys.sorted(by: ParameterValue.precedes) {
            if let value = parameters[key] {
                appendPairs(key: key, value: value, to: &result)
            }
        }
        return result
    }

    /// The pairs for `value` under `key` (AFNetworking's `AFQueryStringPairsFromKeyAndValue`).
    public static func pairs(key: String, value: ParameterValue) -> [QueryStringPair] {
        var result: [QueryStringPair] = []
        appendPairs(key: key, value: value, to: &result)
        return result
    }

    /// `string` percent-escaped for a query: every byte of its UTF-8 form is escaped as `%XX`
    /// (upper-case hex) except ASCII letters, digits and `-._~/?`.
    ///
    /// This is AFNetworking's `AFPercentEscapedStringFromString`: the query characters of
    /// RFC 3986 minus the general delimiters `:#[]@` and the sub-delimiters `!$&'()*+,;=`;
    /// `/` and `?` stay, as RFC 3986 §3.4 allows. A `%` is always escaped, so `%25` becomes
    /// `%2525`. The whole string is escaped at once; a Swift string is always valid Unicode,
    /// so no grapheme cluster or surrogate pair can be split.
    public static func percentEscaped(_ string: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if isUnescaped(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func isUnescaped(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            true
        default:
            false
        }
    }

    private static func appendPairs(key: String, value: ParameterValue, to result: inout [QueryStringPair]) {
        switch value {
        case .dictionary(let entries):
            for nestedKey in entries.keys.sorted(by: ParameterValue.precedes) {
                if let nestedValue = entries[nestedKey] {
                    appendPairs(key: "\(key)[\(nestedKey)]", value: nestedValue, to: &result)
                }
            }
        case .array(let elements):
            for element in elements {
                appendPairs(key: "\(key)[]", value: element, to: &result)
            }
        case .set(let elements):
            let sorted = elements.map { ($0.foundationDescription, $0) }.sorted { ParameterValue.precedes($0.0, $1.0) }
            for (_, element) in sorted {
                appendPairs(key: key, value: element, to: &result)
            }
        case .string, .integer, .double, .bool, .null, .data, .date:
            result.append(QueryStringPair(field: key, value: value))
        }
    }
}
