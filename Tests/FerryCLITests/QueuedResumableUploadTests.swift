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
