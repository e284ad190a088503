import Foundation

/// `ResumeData` is what a download needs to continue where it stopped: the URL that served
/// the bytes, the validators of the representation, its total length and the durable offset.
///
/// Bytes of the `.part` file past ``durableOffset`` are untrusted: they are truncated away
/// before resuming. A resume sends `Range: bytes=<durableOffset>-` with `If-Range` (the strong
/// ``etag``, else ``lastModified``); without either validator a download starts over, because
/// nothing could tell a changed file from the same one. The queue maps it to and from its own
/// resume record.
public struct ResumeData: Sendable, Hashable {
    /// The URL after redirects that served the bytes; `nil` by default.
    public var finalURL: URL?
    /// The strong ETag of the representation; weak (`W/`) ones are never kept. `nil` by default.
    public var etag: String?
    /// The Last-Modified header as received; `nil` by default.
    public var lastModified: String?
    /// The full size announced by the server; `nil` when unknown.
    public var totalLength: Int64?
    /// The bytes known to be on disk (synchronized) from offset 0; `0` by default.
    public var durableOffset: Int64

    public init(finalURL: URL? = nil, etag: String? = nil, lastModified: String? = nil, totalLength: Int64? = nil, durableOffset: Int64 = 0) {
        self.finalURL = finalURL
        self.etag = etag.flatMap(Self.strongETag)
        self.lastModified = lastModified.flatMap { $0.isEmpty ? nil : $0 }
        self.totalLength = totalLength.flatMap { $0 >= 0 ? $0 : nil }
        self.durableOffset = max(0, durableOffset)
    }

    /// The validators and length of `response` (a 200 or a 206), at offset `durableOffset`.
    public init(response: HTTPResponse, totalLength: Int64?, durableOffset: Int64) {
        self.init(
            finalURL: response.url,
            etag: response.headers["ETag"],
            lastModified: response.headers["Last-Modified"],
            totalLength: totalLength,
            durableOffset: durableOffset
        )
    }

    /// The `If-Range` value: the strong ETag, else Last-Modified, else `nil` (no safe resume).
    public var ifRange: String? { etag ?? lastModified }

    /// Whether a resume from these data can be validated by the server (`ifRange` is known).
    public var canResume: Bool { ifRange != nil && durableOffset > 0 }

    /// `value` when it is a strong entity tag (`"..."`), else `nil` (weak or malformed).
    public static func strongETag(_ value: String) -> String? {
        let trimmed = value.trimmingBlanks()
        // On bytes: a quote, no quote, blank or control character inside, a closing quote
        // (every byte of a non-ASCII character is >= 0x80 and allowed).
        let quote = UInt8(ascii: "\"")
        let bytes = trimmed.utf8
        guard bytes.count >= 2, bytes.first == quote, bytes.last == quote,
              !bytes.dropFirst().dropLast().contains(quote),
              bytes.allSatisfy({ $0 >= 0x21 && $0 != 0x7F }) else { return nil }
        return trimmed
    }
}
