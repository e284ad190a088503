import FerryKit

/// `TaskDraft` is a new task's options as `key=value` pairs set them (a batch entry, an RPC
/// `addUri`), read by `TaskOptionTable`: only what was given is set, so the defaults of the
/// command (`BatchDefaults`) fill the rest.
public struct TaskDraft: Sendable {
    public var directory: String?
    /// `subdirectory` is the directory part of an `out=sub/name`, inside `dir`.
    public var subdirectory: String?
    public var name: String?
    public var headers: [HeaderField] = []
    public var overwrite: Bool?
    public var retries: Int?
    public var checksum: Checksum?
    public var paused: Bool?
    /// `limit` is `max-download-limit` (`.some(nil)`: none, `0`), `nil` when not given.
    public var limit: Int64??
    /// aria2's `split` and `max-connection-per-server`: the download uses the smaller.
    public var split: Int?
    public var connectionsPerServer: Int?
    public var minSplitSize: Int64?
    public var priority: Int?
    public var contentDisposition: Bool?
    /// `connection` holds the trust, login, proxy and cookie settings given; `given` names them
    /// (aria2's option names), so a default is replaced only where the draft sets its own.
    public var connection = ConnectionSettings()
    public var given: Set<String> = []

    public init() {}

    /// `connections` is the connection count the draft asks for (the smaller of `split` and
    /// `max-connection-per-server`), `nil` when it sets neither.
    public var connections: Int? { [split, connectionsPerServer].compactMap { $0 }.min() }

    /// `connection(over:)` is `defaults` with what this draft sets replacing it, option by option.
    public func connection(over defaults: ConnectionSettings) -> ConnectionSettings {
        // Most entries set none of them: no need to ask for each.
        guard !given.isEmpty else { return defaults }
        var merged = defaults
        let own = connection
        func take(_ keys: String..., apply: (inout ConnectionSettings) -> Void) {
            if keys.contains(where: given.contains) { apply(&merged) }
        }
        take("check-certificate") { $0.insecure = own.insecure }
        take("ca-certificate") { $0.caFile = own.caFile }
        take("ca-directory") { $0.caDirectory = own.caDirectory }
        take("pin") { $0.pinnedKeys = own.pinnedKeys; $0.pinnedCertificates = own.pinnedCertificates }
        take("certificate") { $0.clientCertificate = own.clientCertificate }
        take("private-key") { $0.clientKey = own.clientKey }
        take("http-user") { $0.user = own.user }
        take("http-passwd") { $0.password = own.password }
        take("http-auth") { $0.authScheme = own.authScheme }
        take("no-netrc", "netrc-path") { $0.usesNetrc = own.usesNetrc; $0.netrcFile = own.netrcFile }
        take("all-proxy") { $0.proxy = own.proxy }
        take("no-proxy") { $0.noProxy = own.noProxy }
        take("load-cookies") { $0.cookieFiles = own.cookieFiles }
        take("save-cookies") { $0.cookieJar = own.cookieJar }
        take("http-accept-gzip") { $0.compressed = own.compressed }
        take("metalink-http") { $0.ignoresMetalinkHTTP = own.ignoresMetalinkHTTP }
        take("connect-timeout") { $0.connectTimeout = own.connectTimeout }
        take("max-time") { $0.maximumTime = own.maximumTime }
        return merged
    }

    /// `task(urls:defaults:)` is the new task of this draft, `defaults` filling what it does
    /// not set. A `dir` is taken as given (the caller checks and resolves it).
    public func task(urls: [TransferURL], defaults: BatchDefaults, upload: UploadSpec? = nil) -> NewTask {
        let inherited: [HeaderField]
        if headers.isEmpty {
            inherited = defaults.headers
        } else {
            let ownNames = Set(headers.map { $0.name.lowercased() })
            inherited = defaults.headers.filter { !ownNames.contains($0.name.lowercased()) }
        }
        var destination = directory ?? defaults.directory
        if let subdirectory {
            destination = (destination.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? "") + subdirectory
        }
        let spec = TaskSpec(
            urls: urls,
            headers: inherited + headers,
            destinationDirectory: destination,
            requestedName: name,
            overwrite: overwrite ?? defaults.overwrite,
            checksum: checksum ?? defaults.checksum,
            useContentDisposition: contentDisposition ?? defaults.useContentDisposition,
            options: TaskOptions(
                maxDownloadLimit: limit ?? defaults.maxDownloadLimit,
                retries: retries ?? defaults.retries,
                connections: connections ?? defaults.connections,
                minSplitSize: minSplitSize ?? defaults.minSplitSize),
            upload: upload,
            connection: connection(over: defaults.connection))
        return NewTask(spec: spec, priority: priority ?? defaults.priority, startsPaused: paused ?? defaults.startsPaused)
    }
}
