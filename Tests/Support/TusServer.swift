import Foundation

/// `TusServer` is a running `Tests/Servers/tus_server.py`: a real tus 1.0 server
/// (tuspyserver's FastAPI router on uvicorn) on 127.0.0.1, with the tus endpoints under
/// `/files/` and two control endpoints that show what it stored and received. The
/// script's docstring lists its behaviour.
///
/// ```swift
/// let files = try TemporaryDirectory(prefix: "ferry-tus")
/// let server = try TusServer.start(files: files.url)
/// // upload to server.uploadsURL, then:
/// let upload = try #require(try server.uploads().first)
/// #expect(upload.complete && upload.sha256 == expectedDigest)
/// ```
///
/// Tests skip themselves unless `TusServer.isAvailable` (`make deps` installs the Python
/// packages). The server stops when `stop()` is called, when this object goes away, and by
/// itself when the test process dies (it watches its standard input). Uploads stay in the
/// files directory: a server started again on it serves them on. All methods may be called
/// from any thread.
public final class TusServer: Sendable {
    /// `Upload` is one upload in the files directory, as `GET /_uploads` reports it.
    public struct Upload: Decodable, Sendable, Equatable {
        /// `id` is the upload's id: the last path segment of its URL (32 hex digits).
        public let id: String
        /// `offset` is the server's `Upload-Offset`: the bytes it has accepted.
        public let offset: Int64
        /// `length` is the `Upload-Length`; `nil` while the length is deferred.
        public let length: Int64?
        /// `stored` is the size of the data file (equal to `offset` unless a write failed).
        public let stored: Int64
        /// `sha256` is the lowercase hex SHA-256 of the bytes stored so far.
        public let sha256: String
        /// `complete` is true when `offset` equals `length`.
        public let complete: Bool
        /// `metadata` is the decoded `Upload-Metadata` (with the defaults the server adds
        /// unless started with `strictMetadata`).
        public let metadata: [String: String]
    }

    /// `TusServer.scriptURL` is the server script, found relative to this source file.
    public static let scriptURL = TestSupport.serversDirectory.appendingPathComponent("tus_server.py")

    /// `TusServer.isAvailable` is true when `python3 -c 'import tuspyserver, uvicorn'`
    /// succeeds; it is checked once per test process.
    public static let isAvailable: Bool = {
        let result = try? run(
            executable: "python3", arguments: ["-c", "import tuspyserver, uvicorn"], timeout: .seconds(60)
        )
        return result?.succeeded ?? false
    }()

    /// `port` is the TCP port on 127.0.0.1.
    public let port: Int
    /// `baseURL` is `http://127.0.0.1:<port>`.
    public let baseURL: URL
    /// `uploadsURL` is `http://127.0.0.1:<port>/files/`, where uploads are created (`POST`;
    /// `/files` without the slash works as well).
    public let uploadsURL: URL
    /// `filesDirectory` is where the server keeps the uploads (`<id>` and `<id>.info`).
    public let filesDirectory: URL
    private let process: ChildProcess
    private let stopping = StopOnce()

    private init(port: Int, filesDirectory: URL, process: ChildProcess) {
        self.port = port
        self.filesDirectory = filesDirectory
        self.process = process
        baseURL = URL(string: "http://\(Loopback.host):\(port)")!
        uploadsURL = URL(string: "http://\(Loopback.host):\(port)/files/")!
    }

    deinit {
        stop()
    }

    /// `start(files:port:verbose:strictMetadata:)` launches `python3 tus_server.py --port
    /// <port> --files <files>` (any free port by default) and returns once it serves (at most 30 s: FastAPI is slow to
    /// import). `verbose` makes it log requests to its standard error (see
    /// `standardError`); `false` by default. `strictMetadata` keeps tuspyserver's own rule
    /// that HEAD fails with 400 for an upload created without `filename` and `filetype`
    /// metadata; `false` by default (the server adds them). `checksum` offers the checksum
    /// extension and checks each PATCH's `Upload-Checksum` (460 when it does not match).
    public static func start(files: URL, port: Int = 0, verbose: Bool = false, strictMetadata: Bool = false,
                             checksum: Bool = false) throws -> TusServer {
        guard isAvailable else {
            throw TestSupportError("python3 cannot import tuspyserver and uvicorn: install them (make deps)")
        }
        var arguments = [scriptURL.path, "--port", "\(port)", "--files", files.path, "--exit-on-stdin-eof"]
        if verbose { arguments.append("--verbose") }
        if strictMetadata { arguments.append("--strict-metadata") }
        if checksum { arguments.append("--checksum") }
        let process = try ChildProcess.spawn(executable: "python3", arguments: arguments, input: .keepOpen)
        let port = try process.announcedPort(of: "tus server", timeout: .seconds(30))
        return TusServer(port: port, filesDirectory: files, process: process)
    }

    /// `url(_:)` is `baseURL` followed by `path`, which may carry an already-encoded query.
    public func url(_ path: String) -> URL {
        joinURL(baseURL, path)
    }

    /// `uploads()` is every upload in the files directory, sorted by id, with the SHA-256
    /// of the bytes the server has stored for it.
    public func uploads() throws -> [Upload] {
        try JSONDecoder().decode([Upload].self, from: control("/_uploads").body)
    }

    /// `receivedBytes()` is how many request body bytes (PATCH bodies and creation-with-upload
    /// POST bodies) the server has read since it started: all it received, resent bytes
    /// counted again.
    public func receivedBytes() throws -> Int64 {
        struct Received: Decodable { let bytes: Int64 }
        return try JSONDecoder().decode(Received.self, from: control("/_received").body).bytes
    }

    /// `Checks` are the PATCHes of a server started with `checksum` whose `Upload-Checksum`
    /// matched, and those answered 460.
    public struct Checks: Decodable, Sendable, Equatable {
        public let checksums: Int
        public let mismatches: Int
    }

    /// `checks()` is how many checksummed PATCHes matched and how many did not.
    public func checks() throws -> Checks {
        try JSONDecoder().decode(Checks.self, from: control("/_received").body)
    }

    /// `corrupt(next:)` makes the next `count` checksummed PATCHes fail their check, as if a
    /// byte had changed on the way (a server started with `checksum`).
    public func corrupt(next count: Int) throws {
        _ = try control("/_corrupt?count=\(count)")
    }

    /// `standardError` is what the server wrote to its standard error (with `verbose`).
    public var standardError: String {
        String(decoding: process.standardError, as: UTF8.self)
    }

    /// `stop()` sends the server `SIGTERM`, waits up to 5 s, then kills it; the files stay.
    /// Calling it again does nothing.
    public func stop() {
        guard stopping.claim() else { return }
        process.stopWatched()
    }

    private func control(_ target: String) throws -> Loopback.HTTPReply {
        try Loopback.control(port: port, target: target)
    }
}

extension ChildProcess {
    /// `announcedPort(of:timeout:)` waits for a test server's first line, `PORT <n>`, and
    /// returns `n`. When the line does not come within `timeout`, or is something else, it
    /// stops the child and throws an error naming `server` with the child's standard error.
    func announcedPort(of server: String, timeout: Duration) throws -> Int {
        let announced = waitForOutput(timeout: timeout) { output in
            output.contains(UInt8(ascii: "\n"))
        }
        let firstLine = String(decoding: standardOutput, as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
        guard announced, firstLine.hasPrefix("PORT "), let port = Int(firstLine.dropFirst(5)), port > 0 else {
            let result = terminate(grace: .seconds(2))
            closeInput()
            throw TestSupportError(
                "\(server) did not announce its port (first line \"\(firstLine)\"): "
                    + "\(result?.termination.description ?? "still running") \(result?.stderr ?? "")"
            )
        }
        return port
    }
}
