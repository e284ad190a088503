import Foundation

/// `ImageInfo` is the format and pixel size of an image, read from its header only; its
/// `description` is like `PNG 640x480`.
///
/// Supported: PNG (the IHDR chunk), JPEG (the first SOF frame header), GIF (the logical
/// screen) and WebP (lossy `VP8 `, lossless `VP8L` and extended `VP8X`).
public struct ImageInfo: Sendable, Hashable, CustomStringConvertible {
    /// `Format` is an image format that ``ImageInfo`` can read.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        case png = "PNG"
        case jpeg = "JPEG"
        case gif = "GIF"
        case webP = "WebP"
    }

    public var format: Format
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int

    public init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// Reads the format and size from the first bytes of `data`, or fails with
    /// ``SerializationReason/invalidImage(_:)`` for an unknown format or a truncated or
    /// damaged header.
    public init(data: Data) throws(FerryError) {
        self = try ImageHeaderParser(bytes: [UInt8](data.prefix(ImageHeaderParser.maximumScannedLength))).parse()
    }

    public var description: String {
        "\(format.rawValue) \(width)x\(height)"
    }
}
