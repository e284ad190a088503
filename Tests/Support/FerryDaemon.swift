import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `FerryDaemon` is a real `ferry daemon` started by a test on a state directory, with TCP on
/// 127.0.0.1 and a secret (given through `FERRY_RPC_SECRET`), and stopped by its pid.
public final class FerryDaemon: Sendable {
    /// `secret` is the RPC secret every daemon of the tests uses.
    public static let secret = "test-secret-\(UUID().uuidString)"

    /// `port` is the daemon's TCP port on 127.0.0.1.
    public let port: Int
    /// `stateDirectory` is the state directory it runs.
    public let stateDirectory: URL
    /// `process` is the daemon's process.
    public let process: ChildProcess

    private init(port: Int, stateDirectory: URL, process: ChildProcess) {
        self.port = port
        self.stateDirectory = stateDirectory
        self.process = process
    }

    deinit {
        process.kill()
    }

    /// `start(stateDirectory:port:arguments:)` starts the daemon and returns once its TCP port
    /// and its `control.sock` accept connections (at most 30 s; the TCP door may open first);
    /// `port` `nil` picks a free one.
    public static func start(stateDirectory: URL, port: Int? = nil, arguments: [String] = []) throws -> FerryDaemon {
        let port = try port ?? Loopback.freePort()
        var environment = ProcessInfo.processInfo.environment
        environment["FERRY_RPC_SECRET"] = secret
        let process = try ChildProcess.spawn(
            executable: try ferryExecutableURL().path,
            arguments: ["daemon", "--state-dir", stateDirectory.path, "--rpc-port", String(port)] + arguments,
            environment: environment
        )
        let socket = stateDirectory.appendingPathComponent("control.sock").path
        guard Loopback.waitUntil(timeout: .seconds(30), while: { process.isRunning }, {
            Loopback.isAccepting(port: port) && Loopback.isAccepting(socketPath: socket)
        }) else {
            process.kill()
            let output = String(decoding: process.standardError, as: UTF8.self)
            throw TestSupportError("ferry daemon did not listen on \(port): \(output)")
        }
        return FerryDaemon(port: port, stateDirectory: stateDirectory, process: process)
    }

    /// `call(_:_:token:)` calls one method over TCP with the secret (or `token`, `nil` for
    /// none) and returns the reply object.
    public func call(_ method: String, _ params: [Any] = [], token: String? = FerryDaemon.secret) throws -> [String: Any] {
        let all: [Any] = (token.map { ["token:\($0)"] } ?? []) + params
        let body = try JSONSerialization.data(withJSONObject: ["jsonrpc": "2.0", "id": "t", "method": method, "params": all])
        let reply = try post(body)
        guard let object = try JSONSerialization.jsonObject(with: reply.body) as? [String: Any] else {
            throw TestSupportError("not a JSON-RPC reply: \(String(decoding: reply.body, as: UTF8.self))")
        }
        return object
    }

    /// `result(_:_:)` calls a method and returns its `result`, throwing on an error reply.
    public func result(_ method: String, _ params: [Any] = []) throws -> Any {
        let reply = try call(method, params)
        guard let result = reply["result"] else {
            throw TestSupportError("\(method) failed: \(reply)")
        }
        return result
    }

    /// `post(_:)` sends a raw body to `POST /jsonrpc`.
    public func post(_ body: Data) throws -> Loopback.HTTPReply {
        try Loopback.request(port: port, method: "POST", target: "/jsonrpc",
                             headers: [("Content-Type", "application/json")], body: body, timeout: .seconds(30))
    }

    /// `waitUntil(timeout:_:)` polls `condition` every 100 ms until it holds (`true`) or
    /// `timeout` passes (`false`).
    public func waitUntil(timeout: Duration, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout.seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(100_000)
        }
        return try condition()
    }

    /// `statuses()` maps each GID of every task (active, waiting, stopped) to its status object.
    public func statuses() throws -> [String: [String: Any]] {
        var table: [String: [String: Any]] = [:]
        let lists = [try result("aria2.tellActive"), try result("aria2.tellWaiting", [0, 1000]), try result("aria2.tellStopped", [0, 1000])]
        for list in lists {
            for case let status as [String: Any] in (list as? [Any]) ?? [] {
                if let gid = status["gid"] as? String { table[gid] = status }
            }
        }
        return table
    }

    /// `stop()` sends SIGTERM and waits up to 30 s for the daemon to end; `nil` if it did not.
    @discardableResult
    public func stop() -> ProcessResult? {
        process.signal(SIGTERM)
        if let result = process.wait(timeout: .seconds(30)) { return result }
        process.kill()
        return nil
    }
}

extension FerryDaemon {
    /// `startExpectingFailure(stateDirectory:)` runs a daemon that should refuse to start
    /// and returns how it ended (killed after 30 s if it did start).
    public static func startExpectingFailure(stateDirectory: URL) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["FERRY_RPC_SECRET"] = secret
        return try run(executable: try ferryExecutableURL().path,
                       arguments: ["daemon", "--state-dir", stateDirectory.path, "--rpc-port", String(try Loopback.freePort())],
                       environment: environment, timeout: .seconds(30))
    }
}
