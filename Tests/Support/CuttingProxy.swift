import Foundation
import Synchronization

/// `CuttingProxy` is a running `Tests/Servers/cutting_proxy.py`: a TCP proxy on 127.0.0.1 in
/// front of one upstream port that resets a connection once the client has sent a given
/// number of bytes, counted over all connections since the start.
///
/// ```swift
/// let server = try TusServer.start(files: files.url)
/// let proxy = try CuttingProxy.start(upstreamPort: server.port)
/// try proxy.cut(after: 7 << 20)  // the connection carrying byte 7 MiB + 1 is reset
/// // upload to proxy.url("/files/"): it fails after 7 MiB; resume it through the proxy
/// #expect(try proxy.stats().connections >= 2)
/// ```
///
/// The proxy stops when `stop()` is called, when this object goes away, and by itself when
/// the test process dies (it watches its standard input). Commands are sent one at a time:
/// calls from several threads wait for each other.
public final class CuttingProxy: Sendable {
    /// `CuttingProxy.scriptURL` is the proxy script, found relative to this source file.
    public static let scriptURL = TestSupport.serversDirectory.appendingPathComponent("cutting_proxy.py")

    /// `port` is the TCP port on 127.0.0.1 that clients connect to.
    public let port: Int
    /// `upstreamPort` is the port on 127.0.0.1 the proxy forwards to.
    public let upstreamPort: Int
    /// `baseURL` is `http://127.0.0.1:<port>`.
    public let baseURL: URL
    private let process: ChildProcess
    /// The lines of standard output already taken as answers (the `PORT` line is the first).
    private let answeredLines = Mutex(1)
    private let stopping = StopOnce()

    private init(port: Int, upstreamPort: Int, process: ChildProcess) {
        self.port = port
        self.upstreamPort = upstreamPort
        self.process = process
        baseURL = URL(string: "http://\(Loopback.host):\(port)")!
    }

    deinit {
        stop()
    }

    /// `start(upstreamPort:verbose:)` launches `python3 cutting_proxy.py --port 0 --upstream
    /// 127.0.0.1:<upstreamPort>` and returns once it listens (at most 10 s). `verbose` makes
    /// it log connections and cuts to its standard error; `false` by default.
    public static func start(upstreamPort: Int, verbose: Bool = false) throws -> CuttingProxy {
        var arguments = [
            scriptURL.path, "--port", "0", "--upstream", "\(Loopback.host):\(upstreamPort)", "--exit-on-stdin-eof",
        ]
        if verbose { arguments.append("--verbose") }
        let process = try ChildProcess.spawn(executable: "python3", arguments: arguments, input: .keepOpen)
        let port = try process.announcedPort(of: "cutting proxy", timeout: .seconds(10))
        return CuttingProxy(port: port, upstreamPort: upstreamPort, process: process)
    }

    /// `url(_:)` is `baseURL` followed by `path`, which may carry an already-encoded query.
    public func url(_ path: String) -> URL {
        joinURL(baseURL, path)
    }

    /// `cut(after:)` queues a cut point: when the client-to-upstream bytes of all connections
    /// since the start would pass `totalBytes`, the connection carrying them gets exactly the
    /// bytes up to `totalBytes` through (delivered upstream), then both of its sides are
    /// reset. Cut points are used once each, lowest first; one at or below the bytes already
    /// sent cuts the next connection that sends anything. It returns once the proxy has
    /// taken the command.
    public func cut(after totalBytes: Int64) throws {
        let answer = try command("cut-after \(totalBytes)")
        guard answer == "OK" else {
            throw TestSupportError("cutting proxy answered \"\(answer)\" to cut-after \(totalBytes)")
        }
    }

    /// `stats()` is the client-to-upstream bytes the proxy has forwarded since the start (all
    /// connections) and the connections it has accepted.
    public func stats() throws -> (bytes: Int64, connections: Int) {
        let answer = try command("stats")
        let words = answer.split(separator: " ")
        guard words.count == 3, words[0] == "STATS", let bytes = Int64(words[1]), let connections = Int(words[2]) else {
            throw TestSupportError("cutting proxy answered \"\(answer)\" to stats")
        }
        return (bytes, connections)
    }

    /// `standardError` is what the proxy wrote to its standard error (with `verbose`).
    public var standardError: String {
        String(decoding: process.standardError, as: UTF8.self)
    }

    /// `stop()` sends the proxy `SIGTERM`, waits up to 5 s, then kills it. Calling it again
    /// does nothing.
    public func stop() {
        guard stopping.claim() else { return }
        process.stopWatched()
    }

    /// Sends one command line and returns the proxy's answer line (at most 10 s).
    private func command(_ line: String) throws -> String {
        try answeredLines.withLock { answered throws(TestSupportError) -> String in
            try process.writeInput(Data((line + "\n").utf8))
            let wanted = answered + 1
            let arrived = process.waitForOutput(timeout: .seconds(10)) { output in
                output.lazy.filter { $0 == UInt8(ascii: "\n") }.count >= wanted
            }
            let lines = String(decoding: process.standardOutput, as: UTF8.self)
                .split(separator: "\n", omittingEmptySubsequences: false)
            guard arrived, lines.count > wanted else {
                throw TestSupportError(
                    "cutting proxy did not answer \"\(line)\" within 10 s "
                        + "(\(process.isRunning ? "running" : "exited")): \(standardError)"
                )
            }
            answered = wanted
            return String(lines[wanted - 1])
        }
    }
}
