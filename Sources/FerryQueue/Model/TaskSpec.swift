/// `TaskSpec` is what the user asked for: what to transfer, where, and how.
///
/// A download has no `upload`; an upload has one. `description` masks URLs and secret
/// headers, so a spec can be logged.
public struct TaskSpec: Sendable, Hashable, CustomStringConvertible {
    /// `urls` are the mirrors of one file, tried in order; at least one is required.
    public var urls: [TransferURL]
    /// `headers` are extra request headers, in order; empty by default.
    public var headers: [HeaderField]
    /// `destinationDirectory` is where a download is saved; `nil` by default (the caller's
    /// default download directory).
    public var destinationDirectory: String?
    /// `requestedName` is the file name the user asked for (`-o`, `out=`); `nil` by default
    /// (derived from the URL or the server).
    public var requestedName: String?
    /// `overwrite` allows replacing an existing file; `false` by default.
    public var overwrite: Bool
    /// `checksum` is the expected digest of the download; `nil` by default.
    public var checksum: Checksum?
    /// `useContentDisposition` takes the server's suggested name (sanitized); `false` by default.
    public var useContentDisposition: Bool
    /// `options` are per-task limits; all `nil` by default.
    public var options: TaskOptions
    /// `upload` describes the body of an upload; `nil` by default (a download).
    public var upload: UploadSpec?
    /// `connection` are the task's own trust, login, proxy, cookie and compression settings;
    /// empty by default (the engine's apply).
    public var connection: ConnectionSettings

    /// `init(urls:headers:...)` makes a spec; only `urls` is required.
    public init(
        urls: [TransferURL],
        headers: [HeaderField] = [],
        destinationDirectory: String? = nil,
        requestedName: String? = nil,
        overwrite: Bool = false,
        checksum: Checksum? = nil,
        useContentDisposition: Bool = false,
        options: TaskOptions = TaskOptions(),
        upload: UploadSpec? = nil,
        connection: ConnectionSettings = ConnectionSettings()
    ) {
        self.urls = urls
        self.headers = headers
        self.destinationDirectory = destinationDirectory
        self.requestedName = requestedName
        self.overwrite = overwrite
        self.checksum = checksum
        self.useContentDisposition = useContentDisposition
        self.options = options
        self.upload = upload
        self.connection = connection
    }

    /// `kind` is `.upload` when `upload` is set, else `.download`.
    public var kind: TransferKind { upload == nil ? .download : .upload }

    /// `description` is a one-line summary with masked URLs and headers.
    public var description: String {
        var parts = ["\(kind)", urls.map(\.masked).joined(separator: " ")]
        if let destinationDirectory { parts.append("dir=\(destinationDirectory)") }
        if let requestedName { parts.append("out=\(requestedName)") }
        if !headers.isEmpty { parts.append("headers=[\(headers.map(\.masked).joined(separator: ", "))]") }
        if let checksum { parts.append("checksum=\(checksum)") }
        if !connection.isEmpty { parts.append(connection.description) }
        return parts.joined(separator: " ")
    }
}
