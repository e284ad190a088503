import Foundation

/// `JSONResponseSerializer` validates a response and decodes its JSON body. It is
/// AFNetworking's `AFJSONResponseSerializer`.
///
/// An empty body, or a body that is a single space (what Rails sends for `head :ok`), decodes
/// to `nil` without an error. The body is converted from the charset of its Content-Type
/// first (see `docs/SERIALIZATION.md`); without one, UTF-8, UTF-16 and UTF-32 are detected.
/// Text that is not JSON fails with ``SerializationReason/invalidJSON(_:)``.
public struct JSONResponseSerializer: ResponseSerializer {
    /// The media types accepted by default: `application/json`, `text/json` and `text/javascript`.
    public static let defaultAcceptableContentTypes: Set<String> = ["application/json", "text/json", "text/javascript"]

    /// The status codes that are accepted; 200-299 by default.
    public var acceptableStatusCodes: IndexSet
    /// The media types that are accepted; ``defaultAcceptableContentTypes`` by default.
    public var acceptableContentTypes: Set<String>?
    /// Whether nulls are removed from the decoded value, recursively, also inside arrays
    /// (see ``ParameterValue/removingNullValues()``); `false` by default.
    public var removesKeysWithNullValues: Bool
    /// Whether a top level that is neither an array nor an object is accepted; `false` by
    /// default, as `JSONSerialization` without `fragmentsAllowed`.
    public var allowsFragments: Bool

    public init(
        acceptableStatusCodes: IndexSet = HTTPResponseSerializer.defaultAcceptableStatusCodes,
        acceptableContentTypes: Set<String>? = Self.defaultAcceptableContentTypes,
        removesKeysWithNullValues: Bool = false,
        allowsFragments: Bool = false
    ) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
        self.removesKeysWithNullValues = removesKeysWithNullValues
        self.allowsFragments = allowsFragments
    }

    /// The decoded body, or `nil` for an empty body or a single space.
    public func serialize(response: HTTPResponse, data: Data) throws(FerryError) -> ParameterValue? {
        try validate(response: response, data: data)
        if data.isEmpty || data == Data(" ".utf8) {
            return nil
        }
        let (bytes, encodingName) = ResponseText.utf8Bytes(of: data, charset: response.textEncodingName)
        guard let bytes else {
            throw .serialization(.invalidJSON("the body is not valid \(encodingName) text"))
        }
        let value = try JSONParser.parse(bytes, allowsFragments: allowsFragments)
        return removesKeysWithNullValues ? value.removingNullValues() : value
    }
}
