import FerryKit
import FerryTestSupport
import Foundation
import Testing

/// The engine's shared speed limit from the command line and through the daemon: kept in the
/// journal, changed live by `ferry limit` and aria2's `changeGlobalOption`/`changeOption`,
/// measured on real transfers from nginx on 127.0.0.1 (unthrottled: Ferry's limit is the only one).
@Suite(.serialized) struct OverallLimitTests {
    /// `Meter` reads each task's completed bytes from the daemon.
    struct Meter {
        let daemon: FerryDaemon

        func completed() throws -> [String: Int64] {
            var table: [String: Int64] = [:]
            for (gid, status) in try daemon.statuses() {
                table[gid] = Int64(status["completedLength"] as? String ?? "") ?? 0
            }
            return table
        }

        /// `Reading` is the bytes of every task as one status call answered them, and when the
        /// call was made and answered: the daemon read them in between.
        struct Reading {
            let bytes: [String: Int64]
            let sent: Double
            let answered: Double
            var time: Double { (sent + answered) / 2 }
            var uncertainty: Double { (answered - sent) / 2 }
        }

        func reading() throws -> Reading {
            let clock = SystemClock()
            let sent = clock.now()
            let bytes = try completed()
            return Reading(bytes: bytes, sent: sent, answered: clock.now())
        }

        /// The bytes per second each of `gids` moved over at least `seconds`: the window grows
        /// (up to 60 s) until the time of its two readings is known within 2% of its length,
        /// so that a status call slowed down by a busy machine does not skew the rate.
        func rates(_ gids: [String], over seconds: Double) throws -> [Double] {
            let start = try reading()
            var end = start
            repeat {
                usleep(useconds_t(max(seconds - (end.time - start.time), 0.1) * 1_000_000))
                end = try reading()
            } while start.uncertainty + end.uncertainty > 0.02 * (end.time - start.time) && end.time - start.time < 60
            let elapsed = end.time - start.time
            return gids.map { Double((end.bytes[$0] ?? 0) - (start.bytes[$0] ?? 0)) / elapsed }
        }

        /// The rates of `gids` over windows of `seconds`, measured again (at most `windows`
        /// times) until `holds` them: a change takes effect at once, but the first window may
        /// still hold bytes from before it. Returns the last rates measured.
        func rates(_ gids: [String], over seconds: Double, windows: Int = 4, until holds: ([Double]) -> Bool) throws -> [Double] {
            var measured = try rates(gids, over: seconds)
            for _ in 1..<windows where !holds(measured) {
                measured = try rates(gids, over: seconds)
            }
            return measured
        }
    }

    private func bigFiles(_ count: Int) throws -> (NginxServer, TemporaryDirectory) {
        let www = try TemporaryDirectory(worldReadable: true)
        for index in 0..<count {
            try Pattern.writeFile(at: www.file("f\(index).bin"), count: 256 << 20, seed: index)
        }
        return (try NginxServer.start(root: www.url), www)
    }

    @Test func badRatesAreRefusedNamingTheValue() throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let limit = try runFerry(["limit", "12Q"], stateDirectory: state.url)
        #expect(limit.exitStatus == 2)
        #expect(limit.stderr.contains("12Q"), "\(limit.stderr)")
        for command in ["get", "resume", "daemon"] {
            let arguments = [command, "--overall-limit", "fast"] + (command == "get" ? ["http://127.0.0.1:9/x"] : [])
            let bad = try runFerry(arguments, stateDirectory: state.url)
            #expect(bad.exitStatus == 2, "\(command): \(bad.stderr)")
            #expect(bad.stderr.contains("--overall-limit") && bad.stderr.contains("fast"), "\(command): \(bad.stderr)")
        }
        for command in ["get", "resume", "daemon", "tui"] {
            let help = try runFerry([command, "--help"])
            #expect(help.stdout.contains("--overall-limit") && help.stdout.contains("--overall-upload-limit"), "\(command)")
        }
    }

    @Test func withoutAnEngineTheSharedLimitIsKeptInTheJournal() throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        #expect(try runFerry(["limit", "2M"], stateDirectory: state.url).exitStatus == 0)
        #expect(try runFerry(["limit", "--upload", "300K"], stateDirectory: state.url).exitStatus == 0)
        let shown = try runFerry(["limit"], stateDirectory: state.url)
        #expect(shown.stdout == "download: 2 MiB/s\nupload: 300 KiB/s\n", "\(shown.stdout)")
        // A resume's own limit applies to that run only: the kept ones stay.
        let resume = try runFerry(["resume", "--overall-upload-limit", "100K"], stateDirectory: state.url)
        #expect(resume.exitStatus == 0, "\(resume.stderr)")
        #expect(try runFerry(["limit"], stateDirectory: state.url).stdout == "download: 2 MiB/s\nupload: 300 KiB/s\n")
        #expect(try runFerry(["limit", "--upload", "300K"], stateDirectory: state.url).exitStatus == 0)
        #expect(try runFerry(["limit", "off"], stateDirectory: state.url).exitStatus == 0)
        #expect(try runFerry(["limit"], stateDirectory: state.url).stdout.hasPrefix("download: off\n"))
        let missing = try runFerry(["limit", "100K", "42"], stateDirectory: state.url)
        #expect(missing.exitStatus == 2 && missing.stderr.contains("#42: no such task"), "\(missing.stderr)")

        // And a daemon started later runs under what was kept.
        #expect(try runFerry(["limit", "768K"], stateDirectory: state.url).exitStatus == 0)
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }
        let options = try #require(try daemon.result("aria2.getGlobalOption") as? [String: Any])
        #expect(options["max-overall-download-limit"] as? String == String(768 << 10))
        #expect(options["max-overall-upload-limit"] as? String == String(300 << 10))

        // And the terminal UI's methods carry it both ways.
        let set = try #require(try daemon.result("ferry.setLimits", [["overallLimit": 1 << 20]]) as? [String: Any])
        #expect((set["overallLimit"] as? NSNumber)?.int64Value == 1 << 20)
        let activity = try #require(try daemon.result("ferry.activity") as? [String: Any])
        let limits = try #require(activity["limits"] as? [String: Any])
        #expect((limits["overallLimit"] as? NSNumber)?.int64Value == 1 << 20)
        #expect(try runFerry(["limit"], stateDirectory: state.url).stdout.hasPrefix("download: 1 MiB/s\n"))
        let negative = try daemon.call("ferry.setLimits", [["overallLimit": -5]])
        #expect(negative["error"] != nil)
    }

    @Test func ferryLimitChangesTheRateOfARunningDaemonWithinASecond() throws {
        // Given a daemon started with --overall-limit 256K, running two large downloads.
        let (nginx, www) = try bigFiles(2)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { nginx.stop(); www.remove(); out.remove(); state.remove() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url, arguments: ["--overall-limit", "256K"])
        defer { daemon.stop() }
        let gids = try (0..<2).map { index in
            try #require(try daemon.result("aria2.addUri", [[nginx.url("/f\(index).bin").absoluteString], ["dir": out.path]]) as? String)
        }
        let meter = Meter(daemon: daemon)
        #expect(daemon.waitUntil(timeout: .seconds(20)) { (try? meter.completed()).map { c in gids.allSatisfy { (c[$0] ?? 0) > 0 } } ?? false })
        // The limits are asserted as what holds under any scheduling: a ceiling (10% over for
        // the clock's grain), and a floor far enough below it that a busy machine reaches it.
        let budget = Double(256 << 10)
        let slow = try meter.rates(gids, over: 3) { $0.reduce(0, +) < 1.1 * budget }.reduce(0, +)
        #expect(slow < 1.1 * budget && slow > 0.5 * budget, "\(slow)")

        // When `ferry limit 1M` runs.
        let change = try runFerry(["limit", "1M"], stateDirectory: state.url)
        #expect(change.exitStatus == 0, "\(change.stderr)")

        // Then the two move up to 1 MiB/s together, well past the old budget, and the daemon
        // reports it.
        let fast = try meter.rates(gids, over: 3) { $0.reduce(0, +) > 2 * budget }.reduce(0, +)
        #expect(fast < 1.1 * Double(1 << 20) && fast > 2 * budget, "\(fast)")
        let options = try #require(try daemon.result("aria2.getGlobalOption") as? [String: Any])
        #expect(options["max-overall-download-limit"] as? String == String(1 << 20))

        // When one task is capped below its fair share (`ferry limit 128K ID`).
        let id = String(Int(gids[0], radix: 16) ?? 0)
        let cap = try runFerry(["limit", "128K", id], stateDirectory: state.url)
        #expect(cap.exitStatus == 0, "\(cap.stderr)")

        // Then it runs at most at its cap, and the other takes more than its half of the budget.
        let capped = Double(128 << 10)
        let split = try meter.rates(gids, over: 3) { $0[0] < 1.15 * capped && $0[1] > Double(1 << 19) }
        #expect(split[0] < 1.15 * capped && split[0] > 0.25 * capped, "\(split)")
        #expect(split[1] > Double(1 << 19) && split.reduce(0, +) < 1.1 * Double(1 << 20), "\(split)")
        let status = try #require(try daemon.result("aria2.getOption", [gids[0]]) as? [String: Any])
        #expect(status["max-download-limit"] as? String == String(128 << 10))
    }

    @Test func getHandingItsDownloadsToADaemonGivesItTheLimitForThatRun() throws {
        // Given a running daemon without a limit, and a 2 MiB file.
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("s.bin"), count: 2 << 20, seed: 1)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }

        // When ferry get runs through it with --overall-limit 512K.
        let clock = SystemClock()
        let started = clock.now()
        let get = try runFerry(["get", "-q", "--overall-limit", "512K", "-d", out.path, nginx.url("/s.bin").absoluteString],
                               stateDirectory: state.url)
        let elapsed = clock.now() - started

        // Then the download is saved, it ran under the limit (2 MiB at 512 KiB/s: 4 s, less a
        // first burst), and the daemon's own budget (none) is back once the get ended: a get's
        // options are for that run.
        #expect(get.exitStatus == 0, "\(get.stderr)")
        #expect(try Data(contentsOf: out.file("s.bin")) == Pattern.bytes(count: 2 << 20, seed: 1))
        #expect(elapsed > 2.5, "\(elapsed) s")
        let options = try #require(try daemon.result("aria2.getGlobalOption") as? [String: Any])
        #expect(options["max-overall-download-limit"] as? String == "0", "\(options)")
    }
}
