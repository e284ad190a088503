import Foundation
import Synchronization

/// `FaultServer` is a running `Tests/Servers/fault_server.py`: a scriptable HTTP/1.1 server
/// on 127.0.0.1 that misbehaves on request (drops, stalls, lies about ranges, redirects,
/// echoes, hashes uploads, parses multipart). Its docstring lists every endpoint.
///
/// The server stops when `stop()` is called, when this object goes away, and by itself
/// when the test process dies (it watches its standard input). `stop()` is idempotent.
public final class FaultServer: Sendable {
    /// `FaultServer.scriptURL` is the server script, found relative to this source file.
    public static let scriptURL = TestSupport.serversDirectory.appendingPathComponent("fault_server.py")

    /// `port` is the TCP port on 127.0.0.1.
    public let port: Int
    /// `baseURL` is `http://127.0.0.1:<port>`.
    public let baseURL: URL
    private let process: ChildProcess
    private let stopping = StopOnce()

    private init(port: Int, process: ChildProcess) {
        self.port = port
        self.process = process
        baseURL = URL(string: "http://\(Loopback.host):\(port)")!
    }

    deinit {
        stop()
    }

    /// `start(verbose:)` launches `python3 fault_server.py --port 0` and returns once it has
    /// printed its port (at most 10 s). `verbose` makes it log requests and handler errors
    /// to its standard error (see `standardError`); `false` by default.
    public static func start(verbose: Bool = false) throws -> FaultServer {
        var arguments = [scriptURL.path, "--port", "0", "--exit-on-stdin-eof"]
        if verbose { arguments.append("--verbose") }
        let process = try ChildProcess.spawn(executable: "python3", arguments: arguments, input: .keepOpen)
        let announced = process.waitForOutput(timeout: .seconds(10)) { output in
            output.contains(UInt8(ascii: "\n"))
        }
        let firstLine = String(decoding: process.standardOutput, as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
        guard announced, firstLine.hasPrefix("PORT "), let port = Int(firstLine.dropFirst(5)), port > 0 else {
            let result = process.terminate(grace: .seconds(2))
            throw TestSupportError(
                "fault server did not announce its port (first line \"\(firstLine)\"): "
                    + "\(result?.termination.description ?? "still running") \(result?.stderr ?? "")"
            )
        }
        return FaultServer(port: port, process: process)
    }

    /// `url(_:)` is `baseURL` followed by `path`, which may carry an already-encoded query.
    public func url(_ path: String) -> URL {
        joinURL(baseURL, path)
    }

    /// `url(_:query:)` is `baseURL` followed by `path` and `query`, each name and value
    /// percent-encoded (so `cd`, `to` and `then` values can be given raw), sorted by name.
    public func url(_ path: String, query: [String: String]) -> URL {
        joinURL(baseURL, path + "?" + FaultServer.encodeQuery(query))
    }

    /// `requests(prefix:)` is the server's log of the requests whose path starts with
    /// `prefix` (all when empty), oldest first. Control paths (`/_...`) are not logged.
    public func requests(prefix: String = "") throws -> [LoggedRequest] {
        let reply = try control("/_log?" + FaultServer.encodeQuery(["prefix": prefix]))
        return try JSONDecoder().decode([LoggedRequest].self, from: reply.body)
    }

    /// `count(key:)` is how many requests carried `key=<key>`.
    public func count(key: String) throws -> Int {
        struct Count: Decodable { let count: Int }
        let reply = try control("/_count?" + FaultServer.encodeQuery(["key": key]))
        return try JSONDecoder().decode(Count.self, from: reply.body).count
    }

    /// `open(gate:)` lets the requests held on `gate` (`hold=<gate>` on `/bytes`) go on; later
    /// ones are not held.
    public func open(gate: String) throws {
        _ = try control("/_open?" + FaultServer.encodeQuery(["gate": gate]), method: "POST")
    }

    /// `reset()` makes the server forget its request log and key counters.
    public func reset() throws {
        _ = try control("/_reset", method: "POST")
    }

    /// `standardError` is what the server wrote to its standard error (with `verbose`).
    public var standardError: String {
        String(decoding: process.standardError, as: UTF8.self)
    }

    /// `stop()` sends the server `SIGTERM`, waits up to 5 s, then kills it. Calling it
    /// again does nothing.
    public func stop() {
        guard stopping.claim() else { return }
        process.stopWatched()
    }

    private func control(_ target: String, method: String = "GET") throws -> Loopback.HTTPReply {
        let reply = try Loopback.request(port: port, method: method, target: target)
        guard reply.status == 200 else {
            throw TestSupportError("\(target) answered \(reply.status): \(String(decoding: reply.body, as: UTF8.self))")
        }
        return reply
    }

    /// `encodeQuery(_:)` is `name=value&...` sorted by name, with everything but RFC 3986
    /// unreserved characters percent-encoded.
    public static func encodeQuery(_ query: [String: String]) -> String {
        var unreserved = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        unreserved.insert(charactersIn: "-._~")
        func encode(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
        }
        return query.sorted { $0.key < $1.key }
            .map { "\(encode($0.key))=\(encode($0.value))" }
            .joined(separator: "&")
    }
}
