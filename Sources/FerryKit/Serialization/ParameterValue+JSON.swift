import Foundation

extension ParameterValue {
    /// The value written as JSON text; see ``JSONWritingOptions`` (empty by default) for the layout.
    ///
    /// Fails with ``SerializationReason/encodingFailed(_:)`` for values that have no JSON form
    /// (NaN, infinities, sets, data, dates) and, unless fragments are allowed, for a top level
    /// that is neither an array nor a dictionary.
    public func jsonString(options: JSONWritingOptions = []) throws(FerryError) -> String {
        try JSONWriter(options: options).string(for: self)
    }

    /// The value written as UTF-8 JSON; see ``jsonString(options:)``.
    public func jsonData(options: JSONWritingOptions = []) throws(FerryError) -> Data {
        Data(try jsonString(options: options).utf8)
    }

    /// The value as indented JSON with sorted keys (two spaces, fragments allowed), for display;
    /// values without a JSON form are shown by their description instead of failing.
    public var prettyPrintedJSON: String {
        (try? jsonString(options: [.prettyPrinted, .fragmentsAllowed, .withoutEscapingSlashes])) ?? foundationDescription
    }
}

extension ParameterValue {
    /// Parses JSON text into a value; invalid JSON is a ``SerializationReason/invalidJSON(_:)`` error.
    public init(jsonData data: Data, allowsFragments: Bool = false) throws(FerryError) {
        self = try JSONParser.parse(Array(data), allowsFragments: allowsFragments)
    }
}
