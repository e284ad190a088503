import FerryTestSupport
import Foundation
import Testing

/// A daemon running the queue takes `get -x N`'s downloads under its own connection limits;
/// `get` says what caps them and how to raise the limits, instead of running slower silently.
@Suite struct DaemonConnectionCapTests {
    @Test func getThroughADaemonSaysWhatCapsItsConnections() throws {
        // Given a daemon with its default limits (4 connections to one server) and a file on nginx.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("big.bin"), count: 4 << 20, seed: 3)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }
        let out = state.file("out")

        // When get asks for 8 connections through it.
        let eight = try runFerry(["get", "-x", "8", "-d", out.path, nginx.url("/big.bin").absoluteString, "--state-dir", state.path],
                                 stateDirectory: state.url)

        // Then the download completes and get names the cap and how to lift it.
        #expect(eight.exitStatus == 0, "\(eight.stderr)")
        #expect(eight.stderr.contains("at most 4 connections to one server"), "\(eight.stderr)")
        #expect(eight.stderr.contains("-x 8 gets 4"), "\(eight.stderr)")
        #expect(eight.stderr.contains("--max-per-host 8"), "\(eight.stderr)")

        // And a get within the limits says nothing of them.
        let two = try runFerry(["get", "-x", "2", "--overwrite", "-d", out.path, nginx.url("/big.bin").absoluteString, "--state-dir", state.path],
                               stateDirectory: state.url)
        #expect(two.exitStatus == 0, "\(two.stderr)")
        #expect(!two.stderr.contains("connections to one server"), "\(two.stderr)")
    }
}
