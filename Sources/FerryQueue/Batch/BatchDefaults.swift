/// `BatchDefaults` are the command line's options for a batch file; each entry that does
/// not set an option itself gets the default.
///
/// Headers merge by name: a default header is added unless the entry sets a header of
/// the same name (case-insensitive). Everything is unset by default.
public struct BatchDefaults: Sendable, Hashable {
    /// `directory` is the default download directory (`-d`); `nil` by default.
    public var directory: String?
    /// `headers` are added to every entry that does not set a header of the same name.
    public var headers: [HeaderField]
    /// `checksum` applies to entries without `checksum=`; `nil` by default.
    public var checksum: Checksum?
    /// `maxDownloadLimit` applies to entries without `max-download-limit=`; `nil` by default.
    public var maxDownloadLimit: Int64?
    /// `startsPaused` applies to entries without `pause=`; `false` by default.
    public var startsPaused: Bool
    /// `retries` is every entry's retry count (no batch option sets it); `nil` by default.
    public var retries: Int?
    /// `overwrite` is every entry's overwrite flag; `false` by default.
    public var overwrite: Bool
    /// `useContentDisposition` is every entry's flag; `false` by default.
    public var useContentDisposition: Bool
    /// `priority` is every entry's priority; `0` by default.
    public var priority: Int
    /// `connections` applies to entries without `split=` or `max-connection-per-server=`
    /// (`-x`); `nil` by default.
    public var connections: Int?
    /// `minSplitSize` applies to entries without `min-split-size=`; `nil` by default.
    public var minSplitSize: Int64?
    /// `connection` are the trust, login, proxy and cookie settings of every entry; an entry's
    /// own option replaces the default of the same name. Empty by default.
    public var connection = ConnectionSettings()
    /// `metalinkLocations` (country codes, lowercased) and `metalinkProtocol` (`http`,
    /// `https`) order the sources of a Metalink an entry names (aria2's `--metalink-location`,
    /// `--metalink-preferred-protocol`); none by default.
    public var metalinkLocations: [String] = []
    public var metalinkProtocol: String?

    /// `init(...)` makes defaults; every option is unset unless given.
    public init(
        directory: String? = nil,
        headers: [HeaderField] = [],
        checksum: Checksum? = nil,
        maxDownloadLimit: Int64? = nil,
        startsPaused: Bool = false,
        retries: Int? = nil,
        overwrite: Bool = false,
        useContentDisposition: Bool = false,
        priority: Int = 0
    ) {
        self.directory = directory
        self.headers = headers
        self.checksum = checksum
        self.maxDownloadLimit = maxDownloadLimit
        self.startsPaused = startsPaused
        self.retries = retries
        self.overwrite = overwrite
        self.useContentDisposition = useContentDisposition
        self.priority = priority
    }
}
