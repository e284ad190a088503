/// `ResumableUploadOptions` say how a ``ResumableUpload`` finds a protocol and how long it
/// keeps trying.
public struct ResumableUploadOptions: Sendable, Equatable {
    /// `Mode` is which protocol to use.
    public enum Mode: String, Sendable, CaseIterable {
        /// tus when the URL's `OPTIONS` answers `Tus-Resumable`, else the IETF protocol offered
        /// on the upload itself (a server that does not know it just takes the upload).
        case auto
        /// The IETF resumable-upload draft only.
        case ietf
        /// tus 1.0 only.
        case tus
    }

    /// `supportedInteropVersions` are the IETF draft's interop versions spoken: 3 (draft 01,
    /// `Upload-Incomplete`), 5 and 6 (`Upload-Complete`; 6 sends appends as
    /// `application/partial-upload`). Apple's URLSession speaks 3 and 6.
    public static let supportedInteropVersions = [3, 5, 6]

    /// `mode` is the protocol choice; `.auto` by default.
    public var mode: Mode
    /// `interopVersion` is the IETF draft's interop version sent; 6 by default.
    public var interopVersion: Int
    /// `maximumStalledAttempts` is how many attempts in a row may end without one more byte on
    /// the server before the upload fails (an attempt that moved bytes starts the count again).
    public var maximumStalledAttempts: Int
    /// `retryDelay` is the wait before the first retry, in seconds (0.5 by default); it
    /// doubles while attempts move nothing, up to 30 s.
    public var retryDelay: Double
    /// `keptReplyBytes` is how much of the server's final reply is kept in the result.
    public var keptReplyBytes: Int
    /// `checksumWindow` is how many bytes one tus append sends when the server offers the
    /// checksum extension (each append's `Upload-Checksum` is computed before it goes); 8 MiB
    /// by default.
    public var checksumWindow: Int64 = 8 << 20

    /// `init(mode:interopVersion:maximumStalledAttempts:retryDelay:keptReplyBytes:)` makes options.
    public init(mode: Mode = .auto, interopVersion: Int = 6, maximumStalledAttempts: Int = 5, retryDelay: Double = 0.5, keptReplyBytes: Int = 1 << 20) {
        self.mode = mode
        self.interopVersion = interopVersion
        self.maximumStalledAttempts = maximumStalledAttempts
        self.retryDelay = retryDelay
        self.keptReplyBytes = keptReplyBytes
    }
}
