import FerryTestSupport
import Foundation
import Glibc
import Testing

/// Queued uploads resume as downloads do: a resumable upload added over RPC (`ferry.add` with
/// `"resumable"`), paused and unpaused, then its daemon killed with SIGKILL and started again,
/// ends byte-exact as one upload (NIOResumableUpload and tuspyserver), the server having received at most
/// 1.1x the body.
@Suite(.serialized) struct QueuedResumableUploadTests {
    static let size = 48 << 20

    @Test(arguments: [UploadPeer.Kind.ietf6, .tus])
    func aQueuedResumableUploadSurvivesPauseAndKillNineOfItsDaemon(kind: UploadPeer.Kind) throws {
        guard kind.isAvailable else { return }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(at: directory.file("files"), withIntermediateDirectories: true)
        let file = directory.file("body.bin")
        try Pattern.writeFile(at: file, count: Self.size, seed: 61)
        let server = try UploadPeer.start(kind, files: directory.file("files"))
        defer { server.stop() }
        let state = directory.file("state")
        let limits = ["--overall-upload-limit", "16M"]
        var daemon = try FerryDaemon.start(stateDirectory: state, arguments: limits)
        defer { daemon.process.kill() }
        let upload: [String: Any] = ["method": kind == .tus ? "POST" : "PUT", "body-file": file.path, "resumable": kind == .tus ? "tus" : "ietf"]
        let gids = try #require(try daemon.result("ferry.add", [[["uris": [server.url.absoluteString], "upload": upload]]]) as? [String])
        let gid = try #require(gids.first)
        func stored() -> Int64 { (try? server.storedBytes()) ?? 0 }
        func status(_ daemon: FerryDaemon) -> String? { (try? daemon.statuses()[gid]?["status"]) as? String }

        // Paused a quarter in, the server keeps what it has; unpaused, the same upload goes on.
        #expect(daemon.waitUntil(timeout: .seconds(60)) { stored() > Int64(Self.size / 4) })
        _ = try daemon.result("aria2.pause", [gid])
        #expect(daemon.waitUntil(timeout: .seconds(30)) { status(daemon) == "paused" })
        let atPause = stored()
        // Listed paused, it shows how far it is: the offset the server said once the upload
        // stopped (asked after the pause, so waited for).
        func listed() -> [String: Any]? {
            guard let result = try? run(executable: try ferryExecutableURL().path, arguments: ["list", "--json", "--state-dir", state.path],
                                        timeout: .seconds(30)),
                  let line = result.stdout.split(separator: "\n").first else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        #expect(daemon.waitUntil(timeout: .seconds(30)) { (listed()?["completed_length"] as? Int ?? 0) > 0 })
        let row = try #require(listed())
        #expect(row["state"] as? String == "paused")
        #expect((row["total_length"] as? Int).map(Int64.init) == Int64(Self.size), "\(row)")
        let shown = Int64(row["completed_length"] as? Int ?? 0)
        #expect(shown > 0 && shown <= atPause, "\(row), \(atPause) stored")
        #expect((row["percent"] as? Int ?? 0) > 0, "\(row)")
        _ = try daemon.result("aria2.unpause", [gid])
        #expect(daemon.waitUntil(timeout: .seconds(60)) { stored() > max(atPause, Int64(Self.size / 2)) })

        // Killed, started again: the upload resumes from the server's offset.
        daemon.process.signal(SIGKILL)
        _ = daemon.process.wait(timeout: .seconds(30))
        daemon = try FerryDaemon.start(stateDirectory: state, arguments: limits)
        #expect(daemon.waitUntil(timeout: .seconds(120)) { status(daemon) == "complete" }, "\(String(describing: status(daemon)))")
        _ = daemon.stop()

        #expect(try server.uploadCount() == 1, "one upload, resumed")
        #expect(try server.completeDigests() == [Pattern.sha256Hex(count: Self.size, seed: 61)])
        let received = try server.receivedBytes()
        #expect(received <= Int64(Double(Self.size) * 1.1), "\(received) bytes received")
    }
}
