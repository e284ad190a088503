import Foundation
import Synchronization

/// `ResumableUploadServer` is a running `resumable-upload-server` (Tests/Servers/
/// ResumableUploadServer): SwiftNIO's `NIOResumableUpload`, a real server of the IETF
/// resumable-upload draft (interop versions 3, 5 and 6), in front of an application that
/// stores each upload it is given as `<files>/<id>.body`.
///
/// Its state is in memory: ``restart()`` gives a server on the same port that has forgotten
/// every upload it had begun (what a client meets after a server restart). The server stops
/// when `stop()` is called, when this object goes away, and by itself when the test process
/// dies (it watches its standard input).
public final class ResumableUploadServer: Sendable {
    /// `Upload` is one upload the application was given, as `GET /_uploads` reports it.
    public struct Upload: Decodable, Sendable, Equatable {
        public let id: Int
        public let method: String
        public let path: String
        public let contentType: String?
        /// `bytes` is how many body bytes the application stored.
        public let bytes: Int64
        /// `complete` is whether the application saw the body's end.
        public let complete: Bool
    }

    /// `port` is the TCP port on 127.0.0.1.
    public let port: Int
    /// `baseURL` is `http://127.0.0.1:<port>`.
    public let baseURL: URL
    /// `filesDirectory` holds the stored bodies.
    public let filesDirectory: URL
    private let process: Mutex<ChildProcess>
    private let stopping = StopOnce()

    private init(port: Int, filesDirectory: URL, process: ChildProcess) {
        self.port = port
        self.filesDirectory = filesDirectory
        self.process = Mutex(process)
        baseURL = URL(string: "http://\(Loopback.host):\(port)")!
    }

    deinit {
        stop()
    }

    /// `executableURL()` is the built server, next to the `ferry` the tests run.
    public static func executableURL() throws -> URL {
        let url = try ferryExecutableURL().deletingLastPathComponent().appendingPathComponent("resumable-upload-server")
        guard access(url.path, X_OK) == 0 else {
            throw TestSupportError("no resumable-upload-server at \(url.path): build the package (swift build --build-tests)")
        }
        return url
    }

    /// `start(files:port:)` launches the server (on `port`, any free one by default) and
    /// returns once it listens (at most 20 s).
    public static func start(files: URL, port: Int = 0) throws -> ResumableUploadServer {
        let process = try launch(files: files, port: port)
        let announced = try process.announcedPort(of: "resumable-upload server", timeout: .seconds(20))
        return ResumableUploadServer(port: announced, filesDirectory: files, process: process)
    }

    private static func launch(files: URL, port: Int) throws -> ChildProcess {
        try ChildProcess.spawn(executable: executableURL().path,
                               arguments: ["--port", "\(port)", "--files", files.path, "--exit-on-stdin-eof"], input: .keepOpen)
    }

    /// `url(_:)` is `baseURL` followed by `path`.
    public func url(_ path: String) -> URL {
        joinURL(baseURL, path)
    }

    /// `uploads()` is every upload begun, oldest first.
    public func uploads() throws -> [Upload] {
        try JSONDecoder().decode([Upload].self, from: control("/_uploads").body)
    }

    /// `receivedBytes()` is every request body byte received since the server started, on
    /// every connection (resent bytes counted again).
    public func receivedBytes() throws -> Int64 {
        struct Received: Decodable { let bytes: Int64 }
        return try JSONDecoder().decode(Received.self, from: control("/_received").body).bytes
    }

    /// `interopVersions()` are the `Upload-Draft-Interop-Version` values requests carried.
    public func interopVersions() throws -> [String] {
        struct Received: Decodable { let versions: [String] }
        return try JSONDecoder().decode(Received.self, from: control("/_received").body).versions
    }

    /// `body(of:)` is the stored body of upload `id`.
    public func body(of id: Int) throws -> Data {
        try Data(contentsOf: filesDirectory.appendingPathComponent("\(id).body"))
    }

    /// `restart()` stops the server and starts a new one on the same port and directory: it
    /// has forgotten every upload (ids start again at 1, so earlier bodies are overwritten
    /// only by new uploads). The port may be taken meanwhile; then it throws.
    public func restart() throws {
        let next = try process.withLock { process -> ChildProcess in
            process.stopWatched()
            var lastError: Error?
            for _ in 0..<20 {
                do {
                    let started = try Self.launch(files: filesDirectory, port: port)
                    _ = try started.announcedPort(of: "resumable-upload server", timeout: .seconds(20))
                    return started
                } catch {
                    lastError = error
                }
            }
            throw lastError ?? TestSupportError("the resumable-upload server did not start again")
        }
        process.withLock { $0 = next }
    }

    /// `stop()` stops the server; the files stay. Calling it again does nothing.
    public func stop() {
        guard stopping.claim() else { return }
        process.withLock { $0.stopWatched() }
    }

    private func control(_ target: String) throws -> Loopback.HTTPReply {
        try Loopback.control(port: port, target: target)
    }
}
