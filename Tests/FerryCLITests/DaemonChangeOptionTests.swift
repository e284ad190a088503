import FerryTestSupport
import Foundation
import Testing

/// `aria2.changeOption` on a real daemon whose engine holds waiting downloads ahead of need:
/// the new `dir` and `out` are where the download is saved when its turn comes.
@Suite(.serialized) struct DaemonChangeOptionTests {
    @Test func aWaitingDownloadStartsWithTheDirNameAndHeadersChangedWhileItWaited() throws {
        // Given a daemon running one download at a time: a slow one runs, another waits behind it.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try FileManager.default.createDirectory(at: www.file("slow"), withIntermediateDirectories: true)
        try Pattern.writeFile(at: www.file("slow/s.bin"), count: 4 << 20, seed: 1)
        try Pattern.writeFile(at: www.file("w.bin"), count: 64 << 10, seed: 2)
        let nginx = try NginxServer.start(root: www.url, extraConfig: "location /slow/ { limit_rate 256k; sendfile_max_chunk 16k; }")
        defer { nginx.stop() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url, arguments: ["--max-concurrent", "1"])
        defer { daemon.stop() }
        let out = state.file("out")
        let slow = try #require(try daemon.result("aria2.addUri", [[nginx.url("/slow/s.bin").absoluteString], ["dir": out.path]]) as? String)
        let waiting = try #require(try daemon.result("aria2.addUri", [[nginx.url("/w.bin").absoluteString], ["dir": out.path]]) as? String)
        let running = try daemon.waitUntil(timeout: .seconds(30)) {
            (try daemon.result("aria2.tellStatus", [slow, ["status"]]) as? [String: Any])?["status"] as? String == "active"
        }
        #expect(running)

        // When the waiting one gets another dir, name and header, and then its turn comes.
        let moved = state.file("moved")
        #expect(try daemon.result("aria2.changeOption", [waiting, ["dir": moved.path, "out": "renamed.bin",
                                                                  "header": "X-Changed: yes"]]) as? String == "OK")
        let status = try #require(try daemon.result("aria2.tellStatus", [waiting, ["status", "dir"]]) as? [String: Any])
        #expect(status["status"] as? String == "waiting" && status["dir"] as? String == moved.path, "\(status)")
        _ = try daemon.result("aria2.remove", [slow])
        let done = try daemon.waitUntil(timeout: .seconds(30)) {
            (try daemon.result("aria2.tellStatus", [waiting, ["status"]]) as? [String: Any])?["status"] as? String == "complete"
        }

        // Then it was saved under the new dir and name, nothing under the old, with the new header.
        #expect(done, "\((try? daemon.statuses()) ?? [:])")
        #expect(try SHA256Hex.of(file: moved.appendingPathComponent("renamed.bin")) == Pattern.sha256Hex(count: 64 << 10, seed: 2))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("w.bin").path))
        let options = try #require(try daemon.result("aria2.getOption", [waiting]) as? [String: Any])
        #expect(options["header"] as? String == "X-Changed: yes" && options["out"] as? String == "renamed.bin", "\(options)")
    }
}
