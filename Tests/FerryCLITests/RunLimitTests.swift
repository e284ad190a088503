import FerryTestSupport
import Foundation
import Testing

/// Speed limits given to `get` and `resume` apply to that run only (curl's model); the limit
/// `ferry limit` keeps slows later runs, and their first line says so and how to lift it.
@Suite struct RunLimitTests {
    @Test func aGetsOverallLimitIsNotKeptForTheNextRuns() throws {
        // Given a file on nginx and an empty state directory.
        let place = try Place()
        defer { place.remove() }
        let (nginx, state, out) = (place.nginx, place.state, place.out)

        // When a get runs with --overall-limit and --overall-upload-limit.
        let limited = try runFerry(["get", "--overall-limit", "1M", "--overall-upload-limit", "300K", "-d", out.url.path,
                                    nginx.url("small.bin").absoluteString], stateDirectory: state.url)
        #expect(limited.exitStatus == 0, "\(limited.stderr)")
        #expect(!limited.stderr.contains("kept overall limit"), "\(limited.stderr)")

        // Then nothing is kept, and the next plain get runs with no note.
        let shown = try runFerry(["limit"], stateDirectory: state.url)
        #expect(shown.stdout == "download: off\nupload: off\n", "\(shown.stdout)")
        let plain = try runFerry(["get", "--overwrite", "-d", out.url.path, nginx.url("small.bin").absoluteString], stateDirectory: state.url)
        #expect(plain.exitStatus == 0, "\(plain.stderr)")
        #expect(!plain.stderr.contains("note:"), "\(plain.stderr)")
    }

    @Test func aKeptLimitIsNamedOnTheFirstLineOfAGet() throws {
        // Given a limit kept by `ferry limit`.
        let place = try Place()
        defer { place.remove() }
        let (nginx, state, out) = (place.nginx, place.state, place.out)
        #expect(try runFerry(["limit", "300K"], stateDirectory: state.url).exitStatus == 0)

        // When a plain get runs, its first line names the kept limit and how to lift it.
        let plain = try runFerry(["get", "-d", out.url.path, nginx.url("small.bin").absoluteString], stateDirectory: state.url)
        #expect(plain.exitStatus == 0, "\(plain.stderr)")
        let first = plain.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first == "ferry: note: the kept overall limit 300 KiB/s applies (set by 'ferry limit'); 'ferry limit off' lifts it", "\(plain.stderr)")

        // And a get that gives its own limit runs under it, without the note, keeping the kept one.
        let own = try runFerry(["get", "--overall-limit", "off", "--overwrite", "-d", out.url.path, nginx.url("small.bin").absoluteString],
                               stateDirectory: state.url)
        #expect(own.exitStatus == 0, "\(own.stderr)")
        #expect(!own.stderr.contains("kept overall limit"), "\(own.stderr)")
        #expect(try runFerry(["limit"], stateDirectory: state.url).stdout.hasPrefix("download: 300 KiB/s\n"))
    }

    @Test func aGetsOverallLimitGivenToADaemonLastsForThatRunOnly() throws {
        // Given a daemon running the queue with a kept download limit of 300 KiB/s.
        let place = try Place()
        defer { place.remove() }
        let (nginx, state, out) = (place.nginx, place.state, place.out)
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }
        #expect(try runFerry(["limit", "300K"], stateDirectory: state.url).exitStatus == 0)

        // When a get through it gives its own download and upload budgets.
        let limited = try runFerry(["get", "--overall-limit", "2M", "--overall-upload-limit", "1M", "-d", out.url.path,
                                    nginx.url("small.bin").absoluteString], stateDirectory: state.url)
        #expect(limited.exitStatus == 0, "\(limited.stderr)")
        #expect(limited.stderr.contains("shares this budget with every task it runs until this get ends"), "\(limited.stderr)")

        // Then the daemon's own budgets are back once it ended: the kept 300 KiB/s, no upload limit.
        let options = try #require(try daemon.result("aria2.getGlobalOption") as? [String: Any])
        #expect(options["max-overall-download-limit"] as? String == String(300 << 10), "\(options)")
        #expect(options["max-overall-upload-limit"] as? String == "0", "\(options)")
        let shown = try runFerry(["limit"], stateDirectory: state.url)
        #expect(shown.stdout == "download: 300 KiB/s\nupload: off\n", "\(shown.stdout)")
    }

    /// `Place` is a 64 KiB file on nginx, an empty state directory and a download directory.
    private struct Place {
        let www: TemporaryDirectory
        let nginx: NginxServer
        let state: TemporaryDirectory
        let out: TemporaryDirectory

        init() throws {
            www = try TemporaryDirectory(worldReadable: true)
            try Data(repeating: 7, count: 64 << 10).write(to: www.file("small.bin"))
            nginx = try NginxServer.start(root: www.url)
            state = try TemporaryDirectory()
            out = try TemporaryDirectory()
        }

        func remove() {
            nginx.stop()
            for directory in [www, state, out] { directory.remove() }
        }
    }
}
