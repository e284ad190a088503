import Foundation

/// `HTTPResponseSerializer` validates the status code and Content-Type and hands the body
/// back unchanged. It is AFNetworking's `AFHTTPResponseSerializer`.
public struct HTTPResponseSerializer: ResponseSerializer {
    /// The status codes accepted by default: 200-299.
    public static let defaultAcceptableStatusCodes = IndexSet(integersIn: 200..<300)

    /// The most bytes of the body kept in a status error, 64 KiB.
    public static let maximumErrorBodyLength = 64 * 1024

    /// The status codes that are accepted; ``defaultAcceptableStatusCodes`` by default.
    public var acceptableStatusCodes: IndexSet
    /// The media types that are accepted; `nil` (any) by default.
    public var acceptableContentTypes: Set<String>?

    public init(acceptableStatusCodes: IndexSet = Self.defaultAcceptableStatusCodes, acceptableContentTypes: Set<String>? = nil) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Validates the response and returns `data` as it is.
    public func serialize(response: HTTPResponse, data: Data) throws(FerryError) -> Data {
        try validate(response: response, data: data)
        return data
    }
}
