import FerryTestSupport
import Foundation
import Testing

/// `ferry daemon --exit-when-idle` (the daemon a client starts for itself) stops once nothing
/// is queued or running and no WebSocket client is attached; `ferry daemon` alone runs on.
@Suite(.serialized) struct DaemonIdleExitTests {
    /// The client: it stays attached on `/jsonrpc` until its standard input closes.
    static let attachedClient = #"""
    import sys
    import websocket

    ws = websocket.create_connection("ws://127.0.0.1:%s/jsonrpc" % sys.argv[1], timeout=30)
    print("attached", flush=True)
    sys.stdin.read()
    ws.close()
    """#

    /// `queueSlowDownload(served:state:seed:)` serves a 1 MiB file from `served` at 256 KB/s
    /// (about four seconds) and queues its download into `state`'s `out` before any daemon
    /// starts, so the daemon has work from its first second; returns the server.
    private func queueSlowDownload(served www: TemporaryDirectory, state: TemporaryDirectory, seed: Int) throws -> NginxServer {
        try Pattern.writeFile(at: www.file("s.bin"), count: 1 << 20, seed: seed)
        let nginx = try NginxServer.start(root: www.url, limitRate: "256k")
        let added = try run(executable: try ferryExecutableURL().path,
                            arguments: ["add", "-d", state.file("out").path, nginx.url("/s.bin").absoluteString, "--state-dir", state.path])
        #expect(added.exitStatus == 0, "\(added.stderr)")
        return nginx
    }

    @Test(.enabled(if: WebSocketNotificationTests.available, "websocket-client is not installed (make deps installs aria2p, which brings it)"))
    func daemonStopsOnceNothingIsLeftAndNoClientIsAttached() throws {
        // Given a queued slow download, a daemon started with --exit-when-idle on its queue,
        // and one without on another.
        let www = try TemporaryDirectory(worldReadable: true)
        let idle = try TemporaryDirectory()
        let kept = try TemporaryDirectory()
        defer { www.remove(); idle.remove(); kept.remove() }
        let nginx = try queueSlowDownload(served: www, state: idle, seed: 3)
        defer { nginx.stop() }
        let daemon = try FerryDaemon.start(stateDirectory: idle.url, arguments: ["--exit-when-idle"])
        defer { daemon.stop() }
        let plain = try FerryDaemon.start(stateDirectory: kept.url)
        defer { plain.stop() }

        // When a WebSocket client attaches while the download runs to its end...
        let client = try ChildProcess.spawn(executable: "python3", arguments: ["-c", Self.attachedClient, String(daemon.port)], input: .keepOpen)
        defer { client.kill() }
        #expect(client.waitForOutput(timeout: .seconds(30)) { String(decoding: $0, as: UTF8.self).contains("attached") })
        let finished = try daemon.waitUntil(timeout: .seconds(30)) {
            (try daemon.result("aria2.tellStatus", ["0000000000000001", ["status"]]) as? [String: Any])?["status"] as? String == "complete"
        }
        #expect(finished)

        // Then the daemon stays while the client is attached (well past the grace)...
        #expect(daemon.process.wait(timeout: .seconds(6)) == nil, "it stopped with a client attached")

        // ...and stops once the client has gone, saying why; the other daemon runs on.
        client.closeInput()
        let ended = try #require(daemon.process.wait(timeout: .seconds(20)), "it did not stop once idle")
        #expect(ended.exitStatus == 0, "\(ended.stderr)")
        #expect(ended.stderr.contains("nothing left to run and no client attached"), "\(ended.stderr)")
        #expect(!FileManager.default.fileExists(atPath: idle.file("control.sock").path))
        #expect(plain.process.isRunning)
        #expect(try SHA256Hex.of(file: idle.file("out/s.bin")) == Pattern.sha256Hex(count: 1 << 20, seed: 3))
    }

    @Test func daemonWaitsForQueuedWorkBeforeStopping() throws {
        // Given a queued download of about four seconds.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        let nginx = try queueSlowDownload(served: www, state: state, seed: 8)
        defer { nginx.stop() }

        // When the daemon starts with it queued...
        let daemon = try FerryDaemon.start(stateDirectory: state.url, arguments: ["--exit-when-idle"])
        defer { daemon.stop() }

        // Then the daemon finishes it before it stops on its own.
        let ended = try #require(daemon.process.wait(timeout: .seconds(60)), "it did not stop once idle")
        #expect(ended.exitStatus == 0, "\(ended.stderr)")
        #expect(try SHA256Hex.of(file: state.file("out/s.bin")) == Pattern.sha256Hex(count: 1 << 20, seed: 8))
    }
}
