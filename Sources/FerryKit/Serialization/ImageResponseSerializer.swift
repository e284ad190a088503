import Foundation

/// `ImageResponseSerializer` validates a response and reports the format and pixel size of
/// its image body (``ImageInfo``), reading headers only. It stands for AFNetworking's
/// `AFImageResponseSerializer`, which decodes a `UIImage`/`NSImage`; Ferry only needs to
/// say what arrived.
///
/// An empty body or an unknown format fails with ``SerializationReason/invalidImage(_:)``.
public struct ImageResponseSerializer: ResponseSerializer {
    /// The media types accepted by default, those of the formats read: `image/png`,
    /// `image/jpeg`, `image/gif` and `image/webp`.
    public static let defaultAcceptableContentTypes: Set<String> = ["image/png", "image/jpeg", "image/gif", "image/webp"]

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

    /// The image's format and size.
    public func serialize(response: HTTPResponse, data: Data) throws(FerryError) -> ImageInfo {
        try validate(response: response, data: data)
        return try ImageInfo(data: data)
    }
}
