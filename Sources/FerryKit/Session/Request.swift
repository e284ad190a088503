import Foundation

/// `Request` is everything needed to start one HTTP transfer: URL, method, headers and body.
///
/// A request is a value; the engine copies what it needs when a task starts.
public struct Request: Sendable {
    /// The URL; only `http` and `https` are accepted (see ``Request/validatedURL(_:)``).
    public var url: URL
    /// The method, `GET` by default.
    public var method: HTTPMethod
    /// Header fields sent as given, after the session's defaults.
    public var headers: HTTPHeaders
    /// The body, `nil` by default.
    public var body: RequestBody?
    /// Seconds allowed to connect, `nil` for the session's default.
    public var connectTimeout: Double?
    /// Seconds the whole transfer may take (curl's `--max-time`), `nil` (no limit) by default;
    /// past it the transfer fails with ``TransportReason/gaveUp(seconds:)``, never retried.
    public var maximumTime: Double?
    /// The origin the request's secrets (secret headers, URL credentials) were given for;
    /// `nil` means the origin of ``url``. They are sent only while the URL being fetched has
    /// this origin (see ``Origin``), so a request moved to another URL (``moved(to:)``) keeps
    /// them from other hosts. `nil` by default.
    public var credentialOrigin: Origin?
    /// The receive speed cap in bytes per second for this transfer, `nil` for the session's
    /// (``SessionConfiguration/maximumReceiveSpeed``). `nil` by default.
    public var maximumReceiveSpeed: Int64?
    /// A transfer slower than ``lowSpeedLimit`` bytes per second for ``lowSpeedTime`` seconds
    /// is stalled; `nil` for the session's values. `nil` by default.
    public var lowSpeedLimit: Int?
    /// See ``lowSpeedLimit``; `nil` for the session's value. `nil` by default.
    public var lowSpeedTime: Int?
    /// How this request's TLS peers are evaluated; `nil` (the session's) by default.
    public var securityPolicy: SecurityPolicy?
    /// The user name and password sent to the request's origin only; `nil` by default.
    public var login: Login?
    /// Whether a `.netrc` file gives the login of hosts the request has none for (as wget
    /// reads it); libcurl matches its machine lines to each host. `false` by default.
    public var usesNetrc = false
    /// The `.netrc` file read when ``usesNetrc`` is set; `nil` for `~/.netrc`.
    public var netrcFile: String?
    /// Cookie files (Netscape format, or `Set-Cookie` lines) whose cookies are sent where
    /// their domain, path, secure flag and expiry allow (libcurl's cookie engine); none by default.
    public var cookieFiles: [String] = []
    /// The file the cookies are written to when the transfer ends (Netscape format, mode
    /// 0600): those of ``cookieFiles`` and those the servers set. `nil` by default.
    public var cookieJar: String?
    /// Whether the body may come compressed (gzip, deflate, br, zstd: what the libcurl here
    /// decodes) and is saved decoded (curl's `--compressed`); never asked for with a `Range`
    /// (a resume, a segment). `false` by default.
    public var acceptsCompression = false
    /// The proxy; `nil` (the environment's, as curl reads `http_proxy`, `https_proxy`,
    /// `all_proxy` and `no_proxy`, never for loopback hosts) by default.
    public var proxy: ProxySettings?
    /// Whether the request speaks HTTP/1.1 on a connection of its own, never as one HTTP/2
    /// stream among others (a segment of a split download); `false` by default.
    public var usesOwnConnection = false
    /// Whether the request goes on a new connection, never one kept from an earlier request:
    /// libcurl sends a request again, body and all, when a reused connection dies before
    /// any reply, which must never happen to an upload's append. `false` by default.
    public var opensFreshConnection = false
    /// The most bytes per second the body is sent at (libcurl's send cap); `nil` (the
    /// default) is no cap of its own.
    public var maximumSendSpeed: Int64?
    /// Whether the transfer steps aside once, at its first body bytes, until the engine's next
    /// turn (libcurl keeps them). libcurl reads all a connection holds before it turns to the
    /// next one; connections opened together then all send their requests before any reads on
    /// (the connections of a split download: a server pacing each reply starts them together).
    /// `false` by default.
    public var yieldsAtFirstBytes = false
    /// libcurl's receive buffer for this transfer in bytes, `nil` for the session's
    /// (``SessionConfiguration/receiveBufferSize``). `nil` by default.
    public var receiveBufferSize: Int?

    public init(url: URL, method: HTTPMethod = .get, headers: HTTPHeaders = [:], body: RequestBody? = nil) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
    }

    /// The origin whose secrets this request carries: ``credentialOrigin``, else ``url``'s.
    public var secretsOrigin: Origin? { credentialOrigin ?? Origin(url) }

    /// The same request sent to `url` (the URL that served a download's bytes, say): its
    /// secrets stay bound to the origin they were given for.
    public func moved(to url: URL) -> Request {
        var moved = self
        moved.credentialOrigin = secretsOrigin
        moved.url = url
        return moved
    }

    /// Parses and checks a URL typed by a user: http or https, a host, no spaces or control characters.
    public static func validatedURL(_ text: String) throws(FerryError) -> URL {
        // The masked form is only made for an error message.
        var shown: String { URLMasking.mask(text).printable }
        if text.isEmpty { throw .input(.malformedURL(text, "the URL is empty")) }
        if text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) {
            throw .input(.malformedURL(shown, "it contains a space, line break or control character"))
        }
        guard let colon = text.firstIndex(of: ":"), text[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }), colon != text.startIndex else {
            throw .input(.malformedURL(shown, "it has no scheme (expected http:// or https://)"))
        }
        let scheme = text[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw .input(.unsupportedScheme(scheme))
        }
        guard let components = URLComponents(string: text), let url = components.url else {
            throw .input(.malformedURL(shown, "it is not a valid URL"))
        }
        guard let host = components.host, !host.isEmpty else {
            throw .input(.malformedURL(shown, "it has no host"))
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw .input(.malformedURL(shown, "port \(port) is out of range"))
        }
        return url
    }
}

/// `RequestBody` is where an upload's bytes come from.
public enum RequestBody: Sendable {
    /// Bytes held in memory.
    case data(Data)
    /// A file read from disk as it is sent; its size must not change meanwhile.
    case file(URL)
    /// A stream made anew for every attempt (multipart bodies, for example).
    case stream(@Sendable () throws(FerryError) -> any BodyStream)

    /// Creates the stream that feeds one attempt of the upload.
    public func makeStream() throws(FerryError) -> any BodyStream {
        switch self {
        case .data(let data): return DataBodyStream(data)
        case .file(let url): return try FileBodyStream(url: url)
        case .stream(let make): return try make()
        }
    }
}

/// `BodyStream` produces an upload body on demand, in any buffer size.
///
/// Used on the engine thread only, one attempt at a time.
public protocol BodyStream: AnyObject {
    /// The exact number of bytes the stream produces, known before the first read; -1 when
    /// it is known only at the end (standard input, a FIFO), then the body is sent chunked.
    var contentLength: Int64 { get }
    /// Fills up to `buffer.count` bytes and returns how many; 0 means the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int
    /// Starts over from the first byte (for a redirect or an authentication replay).
    func rewind() throws(FerryError)
    /// Goes to byte `offset` (at most `contentLength`), so that the next read gives the body
    /// from there: a resumed upload. By default a rewind, then the bytes before `offset` read
    /// and dropped; a file seeks.
    func seek(to offset: Int64) throws(FerryError)
    /// Releases files and other resources; reading after `close()` is an error.
    func close()
    /// A descriptor that becomes readable when the stream has bytes (or its end) to give:
    /// a pipe's. The engine then reads with ``readAvailable(into:)`` and, while nothing is
    /// there, pauses the transfer and waits on the descriptor with its other work, so that an
    /// empty pipe holds up neither the other transfers nor a time limit. `nil` (the default):
    /// reads do not wait on anything.
    var readinessDescriptor: Int32? { get }
    /// ``read(into:)`` without waiting: `nil` when no byte is there yet.
    func readAvailable(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int?
}

extension BodyStream {
    public var readinessDescriptor: Int32? { nil }

    public func seek(to offset: Int64) throws(FerryError) {
        guard contentLength >= 0, offset <= contentLength else { throw .upload(.cannotRewind) }
        try rewind()
        var left = offset
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { scratch.deallocate() }
        while left > 0 {
            let wanted = Int(min(Int64(scratch.count), left))
            let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: scratch[..<wanted]))
            guard count > 0 else { throw .upload(.cannotRewind) }
            left -= Int64(count)
        }
    }

    public func readAvailable(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int? {
        try read(into: buffer)
    }
}
