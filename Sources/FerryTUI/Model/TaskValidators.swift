/// `TaskValidators` are the facts used to check or resume a transfer: the server's
/// validators and the expected checksum.
public struct TaskValidators: Sendable, Hashable {
    /// `etag` is the server's entity tag, quotes included. `nil` by default.
    public var etag: String?
    /// `lastModified` is the server's Last-Modified header value. `nil` by default.
    public var lastModified: String?
    /// `checksum` is the expected digest as `ALGO=HEX`. `nil` by default.
    public var checksum: String?

    /// `init(etag:lastModified:checksum:)` makes a set of validators; all are `nil` by default.
    public init(etag: String? = nil, lastModified: String? = nil, checksum: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.checksum = checksum
    }

    /// `isEmpty` is true when no validator is known.
    public var isEmpty: Bool { etag == nil && lastModified == nil && checksum == nil }
}
