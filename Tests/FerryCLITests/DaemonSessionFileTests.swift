import FerryTestSupport
import Foundation
import Testing

/// `ferry daemon --save-session FILE`: aria2's session file, written when the daemon stops,
/// which `ferry add -i` reads back into another queue.
@Suite struct DaemonSessionFileTests {
    @Test func theSessionFileIsWrittenWhenTheDaemonStopsAndReadBack() throws {
        // Given a daemon with a session file, and a paused download in its queue.
        let state = try TemporaryDirectory()
        let other = try TemporaryDirectory()
        let out = try TemporaryDirectory()
        defer { state.remove(); other.remove(); out.remove() }
        let session = out.file("ferry.session")
        let daemon = try FerryDaemon.start(stateDirectory: state.url, arguments: ["--save-session", session.path])
        let add = try runFerry(["add", "--paused", "-d", out.path, "-o", "kept.bin", "http://127.0.0.1:9/kept.bin"], stateDirectory: state.url)
        #expect(add.exitStatus == 0, "\(add.stderr)")

        // When the daemon stops.
        daemon.stop()

        // Then the file holds the download in aria2's format, mode 0600.
        let text = try String(contentsOf: session, encoding: .utf8)
        #expect(text.hasPrefix("http://127.0.0.1:9/kept.bin\n"), "\(text)")
        #expect(text.contains("\n out=kept.bin\n") && text.contains("\n pause=true\n"), "\(text)")
        let mode = (try FileManager.default.attributesOfItem(atPath: session.path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)

        // And another queue reads it back as the same paused download.
        let readBack = try runFerry(["add", "-i", session.path], stateDirectory: other.url)
        #expect(readBack.exitStatus == 0, "\(readBack.stderr)")
        let list = try runFerry(["list", "--json"], stateDirectory: other.url)
        #expect(list.stdout.contains("kept.bin") && list.stdout.contains("\"state\":\"paused\""), "\(list.stdout)")
    }

    @Test func aFileThatIsNotASessionIsRefused() throws {
        // Given a file that is not a session file.
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let precious = state.file("notes.txt")
        try Data("my notes\n".utf8).write(to: precious)

        // When a daemon is told to save its session there, it refuses to start, and the file stays.
        let daemon = try runFerry(["daemon", "--save-session", precious.path], stateDirectory: state.url, timeout: .seconds(30))
        #expect(daemon.exitStatus == 2, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("not a session file"), "\(daemon.stderr)")
        #expect(try String(contentsOf: precious, encoding: .utf8) == "my notes\n")
    }
}
