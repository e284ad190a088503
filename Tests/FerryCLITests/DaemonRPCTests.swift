import FerryTestSupport
import Foundation
import Testing

/// `ferry daemon` and its aria2 JSON-RPC, driven over TCP by raw HTTP requests: the control
/// endpoint's faults (fault catalogue 46), the secret, `ferry stop`, and a daemon killed with
/// SIGKILL mid-queue and started again.
@Suite(.serialized) struct DaemonRPCTests {
    private func ferry(_ arguments: [String], state: URL, timeout: Duration = .seconds(60)) throws -> ProcessResult {
        try run(executable: try ferryExecutableURL().path, arguments: arguments + ["--state-dir", state.path], timeout: timeout)
    }

    private static func errorCode(_ reply: [String: Any]) -> Int? {
        ((reply["error"] as? [String: Any])?["code"] as? NSNumber)?.intValue
    }

    @Test func controlEndpointAnswersBadRequestsWithErrorsAndKeepsRunning() throws {
        // Given a daemon with a secret on TCP.
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }

        // When requests come with a wrong token, no token, malformed JSON, wrong types, an
        // unknown method, an empty batch and an oversize body...
        let started = Date()
        let wrong = try daemon.call("aria2.getVersion", token: "not-the-secret")
        let waited = Date().timeIntervalSince(started)
        let missing = try daemon.call("aria2.getGlobalStat", token: nil)
        let malformed = try daemon.post(Data("{\"jsonrpc\": \"2.0\", \"method\": ".utf8))
        let notAnObject = try daemon.post(Data("[]".utf8))
        let unknown = try daemon.call("aria2.noSuchMethod")
        let wrongType = try daemon.call("aria2.tellStatus", [42])
        let badGID = try daemon.call("aria2.tellStatus", ["zz"])
        let oversize = try daemon.post(Data(repeating: UInt8(ascii: " "), count: 2 << 20))

        // Then each gets its JSON-RPC error, the wrong token after a delay...
        #expect(Self.errorCode(wrong) == 1)
        #expect((wrong["error"] as? [String: Any])?["message"] as? String == "Unauthorized")
        #expect(waited >= 0.9)
        #expect(Self.errorCode(missing) == 1)
        #expect(malformed.status == 200)
        #expect(Self.errorCode(try #require(try JSONSerialization.jsonObject(with: malformed.body) as? [String: Any])) == -32700)
        #expect(Self.errorCode(try #require(try JSONSerialization.jsonObject(with: notAnObject.body) as? [String: Any])) == -32600)
        #expect(Self.errorCode(unknown) == -32601)
        #expect(Self.errorCode(wrongType) == -32602)
        #expect(Self.errorCode(badGID) == 1)
        #expect(oversize.status == 413)
        #expect(Self.errorCode(try #require(try JSONSerialization.jsonObject(with: oversize.body) as? [String: Any])) == -32600)

        // ...and the daemon still answers: with the token, a batch and a multicall, and the
        // two methods aria2 answers without one.
        let version = try #require(try daemon.result("aria2.getVersion") as? [String: Any])
        #expect(version["version"] is String)
        let batch = try daemon.post(JSONSerialization.data(withJSONObject: [
            ["jsonrpc": "2.0", "id": 1, "method": "aria2.getGlobalStat", "params": ["token:\(FerryDaemon.secret)"]],
            ["jsonrpc": "2.0", "id": 2, "method": "system.listMethods"],
        ]))
        let replies = try #require(try JSONSerialization.jsonObject(with: batch.body) as? [[String: Any]])
        #expect(replies.count == 2)
        let stat = try #require(replies.first { ($0["id"] as? NSNumber)?.intValue == 1 }?["result"] as? [String: Any])
        #expect(stat["numActive"] as? String == "0", "every number is a string: \(stat)")
        let methods = try #require(replies.first { ($0["id"] as? NSNumber)?.intValue == 2 }?["result"] as? [String])
        #expect(methods.contains("aria2.addUri") && methods.contains("system.multicall"))
        let multi = try #require(try daemon.call("system.multicall", [[
            ["methodName": "aria2.getVersion", "params": ["token:\(FerryDaemon.secret)"]],
            ["methodName": "aria2.getVersion", "params": ["token:wrong"]],
        ]], token: nil)["result"] as? [Any])
        #expect(multi.count == 2)
        #expect(((multi[0] as? [Any])?.first as? [String: Any])?["version"] is String)
        #expect((multi[1] as? [String: Any])?["message"] as? String == "Unauthorized")
        #expect(daemon.process.isRunning)

        // The control socket admits only its owner.
        let mode = try FileManager.default.attributesOfItem(atPath: state.file("control.sock").path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }

    @Test func secretsNeverAppearInAnswers() throws {
        // Given a paused task whose URL carries a password and a token and whose headers
        // carry credentials.
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }
        let url = "http://alice:pa55word@127.0.0.1:9/file.bin?token=t0ken-value&x=1"
        let gid = try #require(try daemon.result("aria2.addUri", [[url], [
            "pause": "true", "dir": state.file("out").path,
            "header": ["Authorization: Bearer b3arer-value", "X-Api-Token: h3ader-value", "Accept: text/plain"],
        ]]) as? String)

        // When every answer that shows it is read...
        var answers = ""
        for (method, params) in [("aria2.tellStatus", [gid]), ("aria2.getUris", [gid]), ("aria2.getFiles", [gid]),
                                 ("aria2.getOption", [gid]), ("aria2.tellWaiting", [0, 10])] as [(String, [Any])] {
            let reply = try daemon.call(method, params)
            #expect(reply["result"] != nil, "\(method): \(reply)")
            answers += String(decoding: try JSONSerialization.data(withJSONObject: reply), as: UTF8.self)
        }

        // Then no secret is in them, the rest is.
        for secret in ["pa55word", "t0ken-value", "b3arer-value", "h3ader-value"] {
            #expect(!answers.contains(secret), "\(secret) in \(answers)")
        }
        #expect(answers.contains("127.0.0.1:9"))
        #expect(answers.contains("Accept: text"))
        #expect(answers.contains("\"paused\""))
    }

    @Test func webPagesMayCallOnlyWithAllowOriginAll() throws {
        let state = try TemporaryDirectory()
        let open = try TemporaryDirectory()
        defer { state.remove(); open.remove() }
        let origin = [("Origin", "http://front.example")]
        let preflight = origin + [("Access-Control-Request-Method", "POST")]
        let body = Data(#"{"jsonrpc":"2.0","id":1,"method":"system.listMethods"}"#.utf8)

        // Without the flag: refused (403), no CORS header, no preflight answered.
        let plain = try FerryDaemon.start(stateDirectory: state.url)
        defer { plain.stop() }
        let closed = try Loopback.request(port: plain.port, method: "POST", target: "/jsonrpc", headers: origin, body: body)
        #expect(closed.status == 403)
        #expect(closed.header("Access-Control-Allow-Origin") == nil)
        let refused = try Loopback.request(port: plain.port, method: "OPTIONS", target: "/jsonrpc", headers: preflight)
        #expect(refused.header("Access-Control-Allow-Origin") == nil)

        // With --rpc-allow-origin-all: both.
        let allowing = try FerryDaemon.start(stateDirectory: open.url, arguments: ["--rpc-allow-origin-all"])
        defer { allowing.stop() }
        let answered = try Loopback.request(port: allowing.port, method: "OPTIONS", target: "/jsonrpc", headers: preflight)
        #expect(answered.status == 204 || answered.status == 200)
        #expect(answered.header("Access-Control-Allow-Origin") == "*")
        #expect(answered.header("Access-Control-Allow-Methods")?.contains("POST") == true)
        let called = try Loopback.request(port: allowing.port, method: "POST", target: "/jsonrpc", headers: origin, body: body)
        #expect(called.header("Access-Control-Allow-Origin") == "*")
    }

    @Test func tcpWithoutASecretAndASecondEngineAreRefused() throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        // TCP without a secret: refused at start, exit 2, saying what is missing.
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "FERRY_RPC_SECRET")
        let port = try Loopback.freePort()
        let bare = try run(executable: try ferryExecutableURL().path,
                           arguments: ["daemon", "--rpc-port", String(port), "--state-dir", state.path],
                           environment: environment, timeout: .seconds(30))
        #expect(bare.exitStatus == 2)
        #expect(bare.stderr.contains("needs a secret"), "\(bare.stderr)")
        #expect(!Loopback.isAccepting(port: port))

        // A second engine on the same state directory: refused, as for any other engine.
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }
        let second = try FerryDaemon.startExpectingFailure(stateDirectory: state.url)
        #expect(second.exitStatus == 2)
        #expect(second.stderr.contains("is running this queue"), "\(second.stderr)")
        let resume = try ferry(["resume"], state: state.url)
        #expect(resume.exitStatus == 2)
        #expect(daemon.process.isRunning)

        // A daemon of another queue on a port already taken: it says which and exits 2.
        let other = try TemporaryDirectory()
        defer { other.remove() }
        var withSecret = ProcessInfo.processInfo.environment
        withSecret["FERRY_RPC_SECRET"] = FerryDaemon.secret
        let taken = try run(executable: try ferryExecutableURL().path,
                            arguments: ["daemon", "--rpc-port", String(daemon.port), "--state-dir", other.path],
                            environment: withSecret, timeout: .seconds(30))
        #expect(taken.exitStatus == 2)
        #expect(taken.stderr.contains("cannot listen: 127.0.0.1:\(daemon.port)"), "\(taken.stderr)")
        #expect(daemon.process.isRunning)
    }

    @Test func ferryStopStopsTheDaemonAndSaysSoWhenNoneRuns() throws {
        // Given a daemon running a slow download.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("s.bin"), count: 4 << 20, seed: 3)
        let nginx = try NginxServer.start(root: www.url, limitRate: "512k")
        defer { nginx.stop() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }
        let out = state.file("out")
        let gid = try #require(try daemon.result("aria2.addUri", [[nginx.url("/s.bin").absoluteString], ["dir": out.path]]) as? String)
        #expect(gid.count == 16)
        let active = try daemon.waitUntil(timeout: .seconds(20)) {
            (try daemon.result("aria2.tellStatus", [gid, ["status", "completedLength"]]) as? [String: Any])?["status"] as? String == "active"
        }
        #expect(active)
        // Its cap can be changed (recorded for its next start); dir is accepted, but ignored once
        // the download has begun, and getOption names it.
        #expect(try daemon.result("aria2.changeOption", [gid, ["max-download-limit": "100K"]]) as? String == "OK")
        let options = try #require(try daemon.result("aria2.getOption", [gid]) as? [String: Any])
        #expect(options["max-download-limit"] as? String == "102400", "\(options)")
        #expect(options["split"] as? String == "1" && options["max-connection-per-server"] as? String == "1", "\(options)")
        #expect(try daemon.result("aria2.changeOption", [gid, ["dir": "/tmp"]]) as? String == "OK")
        let kept = try #require(try daemon.result("aria2.getOption", [gid]) as? [String: Any])
        #expect(kept["dir"] as? String == out.path && kept["ferry-ignored"] as? String == "dir", "\(kept)")

        // When `ferry stop` runs...
        let stop = try ferry(["stop"], state: state.url)

        // Then the daemon has ended, the task is still queued, and a second stop says none runs.
        #expect(stop.exitStatus == 0, "\(stop.stderr)")
        let ended = try #require(daemon.process.wait(timeout: .seconds(10)))
        #expect(ended.exitStatus == 0, "\(ended.stderr)")
        #expect(!FileManager.default.fileExists(atPath: state.file("control.sock").path))
        let list = try ferry(["list", "--json"], state: state.url)
        #expect(list.stdout.contains("\"queued\""), "\(list.stdout)")
        let again = try ferry(["stop"], state: state.url)
        #expect(again.exitStatus == 1)
        #expect(again.stderr.contains("no ferry daemon runs"), "\(again.stderr)")
    }

    @Test func detachedDaemonRunsInTheBackgroundUntilStopped() throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        // When `ferry daemon --detach` runs...
        let launch = try ferry(["daemon", "--detach"], state: state.url, timeout: .seconds(30))
        // The daemon's pid is in the engine lock: it is killed whatever the outcome.
        let pid = (try? String(contentsOf: state.file("engine.lock"), encoding: .utf8))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        defer { if let pid { kill(pid, SIGKILL) } }

        // Then it returns at once with the daemon answering, a second one is refused, and
        // `ferry stop` ends it.
        #expect(launch.exitStatus == 0, "\(launch.stderr)")
        #expect(launch.stderr.contains("running in the background"), "\(launch.stderr)")
        let pidValue = try #require(pid)
        #expect(kill(pidValue, 0) == 0)
        let second = try ferry(["daemon", "--detach"], state: state.url, timeout: .seconds(30))
        #expect(second.exitStatus == 2)
        #expect(second.stderr.contains("is running this queue"), "\(second.stderr)")
        let stop = try ferry(["stop"], state: state.url)
        #expect(stop.exitStatus == 0, "\(stop.stderr)")
        let log = (try? String(contentsOf: state.file("ferry.log"), encoding: .utf8)) ?? ""
        #expect(log.contains("daemon stopped"), "\(log)")
    }

    @Test func killedDaemonRestartsAndFinishesEveryFileByteExact() throws {
        // Given four 6 MiB files behind a rate-limited location, two added through RPC and two
        // by `ferry add` from another process while the daemon runs.
        let count = 4
        let size = 6 << 20
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try FileManager.default.createDirectory(at: www.file("slow"), withIntermediateDirectories: true)
        for index in 0..<count {
            try Pattern.writeFile(at: www.file("slow/k\(index).bin"), count: size + index, seed: index + 11)
        }
        let nginx = try NginxServer.start(root: www.url, extraConfig: "location /slow/ { limit_rate 1m; sendfile_max_chunk 64k; }")
        defer { nginx.stop() }
        let out = state.file("out")
        let first = try FerryDaemon.start(stateDirectory: state.url, arguments: ["--max-concurrent", "\(count)"])
        defer { first.stop() }
        for index in 0..<2 {
            _ = try first.result("aria2.addUri", [[nginx.url("/slow/k\(index).bin").absoluteString], ["dir": out.path]])
        }
        let added = try ferry(["add", "-d", out.path] + (2..<count).map { nginx.url("/slow/k\($0).bin").absoluteString }, state: state.url)
        #expect(added.exitStatus == 0, "\(added.stderr)")

        // When every download has 1 MiB or more and the daemon is killed with SIGKILL...
        let started = try first.waitUntil(timeout: .seconds(60)) {
            let statuses = try first.statuses()
            return statuses.count == count && statuses.values.allSatisfy {
                Int64($0["completedLength"] as? String ?? "") ?? 0 >= 1 << 20
            }
        }
        let progress = try first.statuses()
        try #require(started, "the downloads never reached 1 MiB each: \(progress)")
        first.process.signal(SIGKILL)
        #expect(first.process.wait(timeout: .seconds(10))?.signal == SIGKILL)

        // ...and started again on the same state directory (the stale socket replaced).
        let second = try FerryDaemon.start(stateDirectory: state.url, arguments: ["--max-concurrent", "\(count)"])
        defer { second.stop() }
        let finished = try second.waitUntil(timeout: .seconds(90)) {
            let statuses = try second.statuses()
            return statuses.count == count && statuses.values.allSatisfy { $0["status"] as? String == "complete" }
        }

        // Then every file is complete and byte-exact, with no .part left.
        let statuses = try second.statuses()
        #expect(finished, "\(statuses)")
        #expect(directoryListing(out) == (0..<count).map { "k\($0).bin" })
        for index in 0..<count {
            #expect(try SHA256Hex.of(file: out.appendingPathComponent("k\(index).bin")) == Pattern.sha256Hex(count: size + index, seed: index + 11))
        }
        let stopped = second.stop()
        #expect(stopped?.exitStatus == 0)
    }
}
