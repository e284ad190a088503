import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `ProxyServer` is a real proxy from Debian's packages on 127.0.0.1, started through the
/// watchdog (it stops with the test process, however that ends): tinyproxy for HTTP,
/// microsocks for SOCKS5, each optionally requiring a login. `stop()` (also from `deinit`)
/// ends it by pid and removes its directory.
public final class ProxyServer: Sendable {
    /// `Kind` is the proxy's protocol.
    public enum Kind: Sendable {
        case http, socks5
    }

    public let kind: Kind
    public let port: Int
    /// `directory` holds the configuration and the log.
    public let directory: TemporaryDirectory
    private let process: ChildProcess
    private let stopping = StopOnce()

    private init(kind: Kind, port: Int, directory: TemporaryDirectory, process: ChildProcess) {
        self.kind = kind
        self.port = port
        self.directory = directory
        self.process = process
    }

    deinit { stop() }

    /// The executable of `kind`.
    public static func executable(_ kind: Kind) -> String {
        kind == .http ? "/usr/bin/tinyproxy" : "/usr/bin/microsocks"
    }

    /// `isAvailable(_:)` is true when the proxy of `kind` is installed (make deps installs both).
    public static func isAvailable(_ kind: Kind) -> Bool { access(executable(kind), X_OK) == 0 }

    /// `start(_:login:)` starts a proxy of `kind` on a free port; with `login` (user and
    /// password) it refuses requests without them.
    public static func start(_ kind: Kind, login: (user: String, password: String)? = nil) throws -> ProxyServer {
        guard isAvailable(kind) else {
            throw TestSupportError("\(executable(kind)) is missing: install tinyproxy and microsocks (make deps)")
        }
        let directory = try TemporaryDirectory(prefix: "ferry-proxy")
        let port = try Loopback.freePort()
        var command = [executable(kind)]
        switch kind {
        case .http:
            var configuration = """
                Port \(port)
                Listen 127.0.0.1
                Timeout 60
                Allow 127.0.0.1
                LogFile "\(directory.file("proxy.log").path)"
                LogLevel Info
                PidFile "\(directory.file("proxy.pid").path)"

                """
            if let login { configuration += "BasicAuth \(login.user) \(login.password)\n" }
            try configuration.write(to: directory.file("tinyproxy.conf"), atomically: true, encoding: .utf8)
            command += ["-d", "-c", directory.file("tinyproxy.conf").path]
        case .socks5:
            command += ["-i", "127.0.0.1", "-p", "\(port)"]
            if let login { command += ["-u", login.user, "-P", login.password] }
        }
        let process = try ChildProcess.spawn(
            executable: "python3",
            arguments: [TestSupport.serversDirectory.appendingPathComponent("watchdog.py").path, "--"] + command,
            input: .keepOpen
        )
        guard Loopback.waitUntilAccepting(port: port, timeout: .seconds(10), while: { process.isRunning }) else {
            let result = process.terminate(grace: .seconds(2))
            directory.remove()
            throw TestSupportError("\(command[0]) did not start: \(result?.stderr ?? "")")
        }
        return ProxyServer(kind: kind, port: port, directory: directory, process: process)
    }

    /// `url(login:)` is the proxy's URL for `--proxy` (`http://` or `socks5h://`), with a login.
    public func url(login: (user: String, password: String)? = nil) -> String {
        let scheme = kind == .http ? "http" : "socks5h"
        let userInfo = login.map { "\($0.user):\($0.password)@" } ?? ""
        return "\(scheme)://\(userInfo)127.0.0.1:\(port)"
    }

    /// `log()` is what the proxy logged of the requests it carried so far (tinyproxy's log
    /// file; microsocks' standard output).
    public func log() -> String {
        switch kind {
        case .http: (try? String(contentsOf: directory.file("proxy.log"), encoding: .utf8)) ?? ""
        case .socks5: String(decoding: process.standardOutput + process.standardError, as: UTF8.self)
        }
    }

    /// `stop()` ends the proxy (SIGTERM, then SIGKILL after 5 s) and removes its directory;
    /// calling it again does nothing.
    public func stop() {
        guard stopping.claim() else { return }
        process.stopWatched()
        directory.remove()
    }
}
