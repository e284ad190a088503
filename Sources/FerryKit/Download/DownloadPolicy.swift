/// `DownloadPolicy` says how a resumable download keeps its bytes safe and checks them.
public struct DownloadPolicy: Sendable, Hashable {
    /// The default seconds between checkpoints, `1`.
    public static let defaultCheckpointInterval = 1.0

    /// Seconds between checkpoints (synchronize the `.part`, then report the durable offset);
    /// `1` by default. `nil` or `0` turns periodic checkpoints off (a pause, stop or failure
    /// still checkpoints).
    public var checkpointInterval: Double?
    /// Whether a failed, cancelled or paused download keeps its `.part` to resume later; `true` by default.
    public var keepsPartialFile: Bool
    /// The digest the complete file must have; `nil` (no check) by default.
    public var expectedChecksum: ExpectedChecksum?
    /// Whether the final name comes from the server's Content-Disposition (made safe); `false` by default.
    public var usesContentDisposition: Bool
    /// Whether the `.part` stays linked to the finished file until the caller recorded the
    /// completion and removes it (see `PartialFile.commit(to:keepingPartialName:)`); `false` by default.
    public var keepsPartialNameAfterCommit = false
    /// The mark that lets a small download skip its `.part` (see `CommitMark`); `nil` (always a
    /// `.part`) by default.
    package var commitMark: CommitMark?
    /// The mark every `.part` of this download carries (its journal and task, see
    /// `PartOwnership`): a `.part` without it is another's and is never removed, reopened or
    /// adopted; the download then uses the next free `.part` name. `nil` (the `.part` at the
    /// name is taken as this download's) by default.
    package var owner: CommitMark?
    /// Whether the first response is read for Metalink/HTTP (RFC 6249): its digest
    /// (`Repr-Digest`, `Digest`) checks the file when nothing else does, and a download from
    /// several connections spreads them over its `Link: rel=duplicate` mirrors; the delegate
    /// hands what it named to its `sourcesFound`. `false` by default.
    public var readsMetalinkHTTP = false

    public init(checkpointInterval: Double? = defaultCheckpointInterval, keepsPartialFile: Bool = true, expectedChecksum: ExpectedChecksum? = nil, usesContentDisposition: Bool = false) {
        self.checkpointInterval = checkpointInterval
        self.keepsPartialFile = keepsPartialFile
        self.expectedChecksum = expectedChecksum
        self.usesContentDisposition = usesContentDisposition
    }

    /// The interval when periodic checkpoints are on, else `nil`.
    var effectiveCheckpointInterval: Double? {
        guard let checkpointInterval, checkpointInterval > 0 else { return nil }
        return checkpointInterval
    }
}
