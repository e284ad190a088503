import FerryTestSupport
import Foundation
import Testing

/// The same aria2p calls against a real `ferry daemon` and a real `aria2c`, each answered
/// over JSON-RPC on 127.0.0.1: `set_options` with `dir` and a limit together on a paused
/// download, `set_global_options` with ten keys, `resume_all` over the concurrency limit, and
/// the smaller things front ends test for (error texts, URI states, option types). What each
/// reports is compared; the differences that remain are printed.
@Suite(.serialized) struct Aria2ComparisonTests {
    /// `missing` names what the test needs that is not installed, `nil` when all is there.
    static let missing: String? = {
        if (try? run(executable: "python3", arguments: ["-c", "import aria2p"], timeout: .seconds(30)))?.exitStatus != 0 {
            return "aria2p is not installed (make deps installs it with pip)"
        }
        if (try? run(executable: "sh", arguments: ["-c", "command -v aria2c"], timeout: .seconds(30)))?.exitStatus != 0 {
            return "aria2c is not installed (make bench-deps installs the aria2 package)"
        }
        return nil
    }()

    /// The script: the same calls on one server; prints one JSON object of what it saw.
    static let script = #"""
    import json, sys, time
    import aria2p

    port, secret, out, slow_url, idle_url = sys.argv[1:6]
    api = aria2p.API(aria2p.Client(host="http://127.0.0.1", port=int(port), secret=secret, timeout=30))
    client = api.client
    seen = {}

    """# + Aria2pClientTests.waitFunction + #"""

    def error_of(call):
        try:
            call()
            return None
        except aria2p.ClientException as error:
            return error.message

    ten = {"max-concurrent-downloads": "2", "max-overall-download-limit": "0", "split": "1",
           "max-connection-per-server": "1", "user-agent": "compare/1.0", "max-tries": "3",
           "min-split-size": "1048576", "disk-cache": "33554432", "bt-max-peers": "20", "continue": "true"}
    seen["set_global_options"] = api.set_global_options(ten)
    options = client.get_global_option()
    seen["global_all_strings"] = all(isinstance(v, str) for v in options.values())
    seen["global_values"] = {key: options.get(key) for key in ten}
    seen["global_key_count"] = len(options)
    seen["global_ignored"] = options.get("ferry-ignored", "")

    downloads = [api.add_uris([slow_url + str(n)], options={"dir": out, "pause": "true"}) for n in range(4)]
    idle = api.add_uris([idle_url, idle_url + "?mirror"], options={"dir": out, "pause": "true"})
    seen["uri_states_untried"] = [u["status"] for u in client.get_uris(idle.gid)]
    moved = out + "/moved"
    seen["set_options"] = api.set_options({"dir": moved, "max-download-limit": "100K"}, [idle])
    option = client.get_option(idle.gid)
    seen["task_all_strings"] = all(isinstance(v, str) for v in option.values())
    seen["task_key_count"] = len(option)
    seen["task_values"] = {key: option.get(key) for key in ["dir", "max-download-limit", "split", "user-agent", "max-tries"]}
    seen["task_status_dir"] = client.tell_status(idle.gid, ["dir"])["dir"]
    seen["unpause_waiting_error"] = None
    seen["pause_paused_error"] = error_of(lambda: client.pause(idle.gid)).replace(idle.gid, "GID")

    seen["resume_all"] = api.resume_all()
    wait("two downloads to transfer", lambda: sum(1 for d in client.tell_active(["completedLength"]) if int(d["completedLength"]) > 0) >= 2)
    counts = []
    for _ in range(20):
        statuses = [client.tell_status(d.gid, ["status"])["status"] for d in downloads]
        counts.append(statuses.count("active"))
        time.sleep(0.05)
    seen["most_active_of_four"] = max(counts)
    seen["active_listed"] = len(client.tell_active(["gid"]))
    waiting = [d["gid"] for d in client.tell_waiting(0, 100, ["gid"])]
    seen["waiting_listed"] = len(waiting)
    seen["unpause_waiting_error"] = error_of(lambda: client.unpause(waiting[0])).replace(waiting[0], "GID")
    print(json.dumps(seen, sort_keys=True))
    """#

    @Test(.enabled(if: Aria2ComparisonTests.missing == nil, Comment(rawValue: Aria2ComparisonTests.missing ?? "")))
    func ferryAndAria2cReportTheSameAfterTheSameCalls() throws {
        // Given nginx serving slow files, a ferry daemon and aria2c, each with its own directory.
        let www = try TemporaryDirectory(worldReadable: true)
        let ferryState = try TemporaryDirectory()
        let aria2State = try TemporaryDirectory()
        defer { www.remove(); ferryState.remove(); aria2State.remove() }
        try FileManager.default.createDirectory(at: www.file("slow"), withIntermediateDirectories: true)
        for index in 0..<4 { try Pattern.writeFile(at: www.file("slow/s.bin\(index)"), count: 2 << 20, seed: index) }
        try Pattern.writeFile(at: www.file("idle.bin"), count: 1024, seed: 9)
        let nginx = try NginxServer.start(root: www.url, extraConfig: "location /slow/ { limit_rate 64k; sendfile_max_chunk 16k; }")
        defer { nginx.stop() }
        let daemon = try FerryDaemon.start(stateDirectory: ferryState.url)
        defer { daemon.stop() }
        let aria2Port = try Loopback.freePort()
        let aria2 = try ChildProcess.spawn(executable: "/usr/bin/env", arguments: [
            "aria2c", "--no-conf", "--enable-rpc", "--rpc-listen-port", String(aria2Port), "--rpc-secret", FerryDaemon.secret,
            "--dir", aria2State.path, "--quiet=true",
        ], environment: ProcessInfo.processInfo.environment)
        defer { _ = aria2.terminate() }
        #expect(Loopback.waitUntilAccepting(port: aria2Port, timeout: .seconds(30), while: { aria2.isRunning }))

        // When the same aria2p calls run against each.
        func seen(port: Int, out: URL) throws -> [String: Any] {
            let python = try run(executable: "python3", arguments: [
                "-c", Self.script, String(port), FerryDaemon.secret, out.path,
                nginx.url("/slow/s.bin").absoluteString, nginx.url("/idle.bin").absoluteString,
            ], timeout: .seconds(120))
            guard python.exitStatus == 0, let object = try JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: Any] else {
                throw TestSupportError("the script failed on port \(port): \(python.stdout)\n\(python.stderr)")
            }
            return object
        }
        let ferry = try seen(port: daemon.port, out: ferryState.file("out"))
        let reference = try seen(port: aria2Port, out: aria2State.file("out"))

        // Then both accept the options and apply dir and the limit together on the paused download.
        for key in ["set_global_options", "resume_all", "global_all_strings", "task_all_strings"] {
            #expect(ferry[key] as? Bool == true && reference[key] as? Bool == true, "\(key): ferry \(ferry[key] ?? "none"), aria2 \(reference[key] ?? "none")")
        }
        #expect(ferry["set_options"] as? [Bool] == [true] && reference["set_options"] as? [Bool] == [true])
        for key in ["task_values", "uri_states_untried", "pause_paused_error", "unpause_waiting_error", "most_active_of_four",
                    "active_listed", "waiting_listed"] {
            #expect(normalized(ferry[key], ferry: ferryState.path, aria2: aria2State.path)
                    == normalized(reference[key], ferry: ferryState.path, aria2: aria2State.path),
                    "\(key): ferry \(ferry[key] ?? "none"), aria2 \(reference[key] ?? "none")")
        }
        // The ten global options read back the same, but those Ferry names as not used (it
        // answers aria2's defaults for them; aria2 changes some of them and not others).
        let global = try #require(ferry["global_values"] as? [String: String])
        let aria2Global = try #require(reference["global_values"] as? [String: String])
        let unused = Set((ferry["global_ignored"] as? String ?? "").split(separator: ",").map(String.init))
        #expect(unused == ["bt-max-peers", "disk-cache"])
        #expect(global.filter { !unused.contains($0.key) } == aria2Global.filter { !unused.contains($0.key) },
                "ferry \(global), aria2 \(aria2Global)")
        // Both answer aria2's option tables.
        #expect((ferry["global_key_count"] as? Int ?? 0) >= 128 && (ferry["task_key_count"] as? Int ?? 0) >= 75, "\(ferry)")
        print("ferry:", ferry)
        print("aria2:", reference)
    }

    /// `normalized(_:ferry:aria2:)` is a seen value as JSON with sorted keys, each server's own
    /// directory as `DIR`.
    private func normalized(_ value: Any?, ferry: String, aria2: String) -> String {
        let text = (try? JSONSerialization.data(withJSONObject: value ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "none"
        return text.replacingOccurrences(of: ferry, with: "DIR").replacingOccurrences(of: aria2, with: "DIR")
    }
}
