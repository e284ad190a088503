/// `ResumeRecord` is what a download needs to resume safely after a pause, error or crash.
///
/// The engine sends `Range: bytes=durableOffset-` with `If-Range` (the strong `etag`, else
/// `lastModified`) to `finalURL`, and accepts only a 206 whose total equals `totalLength`.
/// Bytes of the `.part` file past `durableOffset` are untrusted and truncated first.
public struct ResumeRecord: Sendable, Hashable {
    /// `finalURL` is the URL after redirects that served the bytes; `nil` by default.
    public var finalURL: TransferURL?
    /// `etag` is the strong ETag of the representation (weak ones are not stored); `nil` by default.
    public var etag: String?
    /// `lastModified` is the Last-Modified header as received; `nil` by default.
    public var lastModified: String?
    /// `totalLength` is the full size announced by the server; `nil` when unknown.
    public var totalLength: Int64?
    /// `durableOffset` counts the bytes known to be on disk (fsynced) from offset 0; `0` by default.
    public var durableOffset: Int64

    /// `init(finalURL:etag:lastModified:totalLength:durableOffset:)` makes a record.
    public init(
        finalURL: TransferURL? = nil,
        etag: String? = nil,
        lastModified: String? = nil,
        totalLength: Int64? = nil,
        durableOffset: Int64 = 0
    ) {
        self.finalURL = finalURL
        self.etag = etag
        self.lastModified = lastModified
        self.totalLength = totalLength
        self.durableOffset = durableOffset
    }
}
