/// `OverallLimits` are a session's speed budgets, shared by all its running transfers.
///
/// The engine splits each budget max-min fairly among the transfers moving bytes in that
/// direction, a few times a second, never giving one more than its own cap
/// (`Request.maximumReceiveSpeed`). `nil` is no limit; a value is at least 1.
public struct OverallLimits: Sendable, Equatable, Hashable {
    /// Bytes per second received by all transfers together, `nil` (no limit) by default.
    public var download: Int64?
    /// Bytes per second sent by all transfers together, `nil` (no limit) by default.
    public var upload: Int64?

    public init(download: Int64? = nil, upload: Int64? = nil) {
        self.download = download.map { max(1, $0) }
        self.upload = upload.map { max(1, $0) }
    }

    /// Whether either budget is set.
    public var isLimiting: Bool { download != nil || upload != nil }
}
