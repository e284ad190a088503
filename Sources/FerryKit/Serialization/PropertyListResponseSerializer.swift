import Foundation

/// `PropertyListResponseSerializer` validates a response and decodes its property-list body
/// (XML, binary or OpenStep) with Foundation's `PropertyListSerialization`. It is
/// AFNetworking's `AFPropertyListResponseSerializer`.
///
/// A body that is not a property list (an empty body included) fails with
/// ``SerializationReason/invalidPropertyList(_:)``.
public struct PropertyListResponseSerializer: ResponseSerializer {
    /// The media types accepted by default: `application/x-plist`.
    public static let defaultAcceptableContentTypes: Set<String> = ["application/x-plist"]

    /// The status codes that are accepted; 200-299 by default.
    public var acceptableStatusCodes: IndexSet
    /// The media types that are accepted; ``defaultAcceptableContentTypes`` by default.
    public var acceptableContentTypes: Set<String>?

    public init(
        acceptableStatusCodes: IndexSet = HTTPResponseSerializer.defaultAcceptableStatusCodes,
        acceptableContentTypes: Set<String>? = Self.defaultAcceptableContentTypes
    ) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// The decoded property list.
    public func serialize(response: HTTPResponse, data: Data) throws(FerryError) -> ParameterValue {
        try validate(response: response, data: data)
        return try ParameterValue(propertyListData: data)
    }
}
