import FerryQueue
import FerryTestSupport
import Foundation
import Testing

/// The real `ferry` binary's terminal UI, driven inside tmux on a temporary state directory.
@Suite(.enabled(if: TmuxTerminal.isAvailable))
struct TerminalCommandTests {
    /// `Fixture` is a state directory, a download directory and `ferry` open on them in tmux.
    final class Fixture {
        let work: TemporaryDirectory
        let terminal: TmuxTerminal
        var stateDirectory: String { work.file("state").path }
        var downloads: String { work.file("downloads").path }

        /// `init(arguments:width:height:seed:)` runs `seed` with the state and download
        /// directories (both made) before ferry opens them.
        init(arguments: [String] = [], width: Int = 80, height: Int = 24,
             seed: (_ stateDirectory: String, _ downloads: String) throws -> Void = { _, _ in }) throws {
            work = try TemporaryDirectory(prefix: "ferry-tui-e2e")
            try FileManager.default.createDirectory(atPath: work.file("downloads").path, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: work.file("state").path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try seed(work.file("state").path, work.file("downloads").path)
            let ferry = try ferryExecutableURL().path
            terminal = try TmuxTerminal(
                command: [ferry, "--state-dir", work.file("state").path, "--dir", work.file("downloads").path] + arguments,
                environment: ["NO_COLOR": "1"], width: width, height: height
            )
        }

        /// The daemon the UI started goes with the test (stopped by pid through `ferry stop`).
        deinit {
            stopDaemon()
            work.remove()
        }

        /// `stopDaemon()` stops the daemon the UI started, if it still runs: its transfers
        /// are checkpointed and stay queued, as the journal then says.
        func stopDaemon() {
            _ = try? runFerry(["stop", "--state-dir", stateDirectory], timeout: .seconds(60))
        }

        /// `addFromAnotherShell(_:)` queues a download with `ferry add` from a second
        /// process, while the UI holds the engine lock.
        func addFromAnotherShell(_ url: String) throws {
            let result = try runFerry(["add", "--state-dir", stateDirectory, "-d", downloads, url], timeout: .seconds(60))
            try #require(result.exitStatus == 0, "\(String(decoding: result.standardError, as: UTF8.self))")
        }

        /// `row(_:)` is the table line of the task named `name`, `nil` when it is not shown.
        func row(_ name: String) -> String? {
            terminal.screen().first { $0.dropFirst(2).hasPrefix(name + " ") }
        }

        /// `settledScreen()` is the screen once it has stayed the same for a second (the
        /// transfers being stopped may still change a row as they end), `nil` if it keeps
        /// changing for 15 seconds.
        func settledScreen() -> [String]? {
            var last = terminal.screen()
            var since = Date()
            var settled: [String]?
            terminal.waitUntil(seconds: 15) {
                let now = terminal.screen()
                if now != last {
                    last = now
                    since = Date()
                }
                if Date().timeIntervalSince(since) >= 1 { settled = now }
                return settled != nil
            }
            return settled
        }

        /// `percent(_:)` is the percentage shown on the row of the task named `name`.
        func percent(_ name: String) -> Int? {
            guard let row = row(name), let match = row.firstMatch(of: /(\d+)%/) else { return nil }
            return Int(match.1)
        }
    }

    /// `starts(_:with:)` is true when `line` starts with one of the state glyphs `glyphs`.
    static func starts(_ line: String?, with glyphs: String...) -> Bool {
        guard let line else { return false }
        return glyphs.contains { line.hasPrefix($0 + " ") }
    }

    /// `slowFiles(_:)` is nginx serving 1 MiB files named `names` at 1 KB/s, so that their
    /// downloads run through a whole test without finishing.
    static func slowFiles(_ names: [String], in www: TemporaryDirectory) throws -> NginxServer {
        for name in names {
            try Pattern.writeFile(at: www.file(name), count: 1 << 20, seed: 7)
        }
        return try NginxServer.start(root: www.url, limitRate: "1k")
    }

    @Test func listsAddsPausesFiltersHelpsResizesAndQuitsCleanly() throws {
        // Given nginx serving two files very slowly, and ferry open on an empty queue
        let www = try TemporaryDirectory(worldReadable: true)
        defer { www.remove() }
        let nginx = try Self.slowFiles(["from-shell.bin", "from-dialog.iso"], in: www)
        defer { nginx.stop() }
        let fixture = try Fixture()
        let terminal = fixture.terminal
        #expect(terminal.waitUntil { terminal.screen().first?.hasPrefix(" Ferry ") == true }, "\(terminal.screen()) \(terminal.standardError())")

        // When another shell queues a download
        try fixture.addFromAnotherShell(nginx.url("from-shell.bin").absoluteString)
        // Then it appears without a key press, and starts
        #expect(terminal.waitUntil { Self.starts(fixture.row("from-shell.bin"), with: "⇣") }, "\(terminal.screen())")

        // When a download is added through the dialog
        try terminal.send("a")
        #expect(terminal.waitUntil { terminal.screen().contains { $0.contains("Add download") } })
        try terminal.type(nginx.url("from-dialog.iso").absoluteString)
        try terminal.send("Enter")
        // Then it is listed and starts, after the first
        #expect(terminal.waitUntil { Self.starts(fixture.row("from-dialog.iso"), with: "⇣") }, "\(terminal.screen())")
        let screen = terminal.screen()
        let first = try #require(screen.firstIndex { $0.contains("from-shell.bin") })
        let second = try #require(screen.firstIndex { $0.contains("from-dialog.iso") })
        #expect(first < second)

        // When the selected (first) task is paused, then resumed
        try terminal.send("g", "Space")
        #expect(terminal.waitUntil { Self.starts(fixture.row("from-shell.bin"), with: "‖") })
        #expect(terminal.waitUntil { terminal.screen().first?.contains("1 paused") == true })
        try terminal.send("Space")
        #expect(terminal.waitUntil { Self.starts(fixture.row("from-shell.bin"), with: "⇣") })

        // When the list is filtered by name
        try terminal.send("/")
        try terminal.type("dialog")
        try terminal.send("Enter")
        // Then only the matching task is shown; Escape in the filter clears it
        #expect(terminal.waitUntil { fixture.row("from-dialog.iso") != nil && fixture.row("from-shell.bin") == nil })
        try terminal.send("/", "Escape")
        #expect(terminal.waitUntil { fixture.row("from-dialog.iso") != nil && fixture.row("from-shell.bin") != nil })

        // When help is opened and closed
        try terminal.send("?")
        #expect(terminal.waitUntil { terminal.screen().contains { $0.contains("Pause or resume the selected task") } })
        try terminal.send("Escape")
        #expect(terminal.waitUntil { !terminal.screen().contains { $0.contains("Pause or resume the selected task") } })

        // When everything is paused (so no speed or time left changes) and the window
        // shrinks to 60x16 and grows back
        try terminal.send("P")
        #expect(terminal.waitUntil { terminal.screen().first?.contains("2 paused") == true }, "\(terminal.screen())")
        #expect(terminal.waitUntil { Self.starts(fixture.row("from-shell.bin"), with: "‖") && Self.starts(fixture.row("from-dialog.iso"), with: "‖") })
        let before = try #require(fixture.settledScreen(), "\(terminal.screen())")
        try terminal.resize(width: 60, height: 16)
        // Then the small layout is whole: header, both rows, nothing wider than 60 columns
        #expect(terminal.waitUntil {
            let small = terminal.screen()
            return small.first?.hasPrefix(" Ferry ") == true && small.filter { !$0.isEmpty }.count > 4
                && fixture.row("from-shell.bin") != nil && fixture.row("from-dialog.iso") != nil
        })
        #expect(terminal.screen().allSatisfy { $0.count <= 60 })
        try terminal.resize(width: 80, height: 24)
        // And back at 80x24 the screen is exactly what it was
        #expect(terminal.waitUntil { terminal.screen() == before }, "\(terminal.screen()) before: \(before)")

        // When everything is resumed and the user quits
        try terminal.send("P")
        #expect(terminal.waitUntil { Self.starts(fixture.row("from-shell.bin"), with: "⇣") && Self.starts(fixture.row("from-dialog.iso"), with: "⇣") })
        try terminal.send("q")
        // Then ferry exits 0 with the terminal restored, and the running tasks are kept queued
        #expect(terminal.waitUntil { terminal.exitLine() != nil })
        #expect(terminal.exitedCleanly(status: 0), "\(terminal.exitLine() ?? "") \(terminal.standardError())")
        // And the transfers went on in the daemon, which says so; stopped, it keeps them queued
        #expect(terminal.standardError().contains("transfers go on in the background"), "\(terminal.standardError())")
        fixture.stopDaemon()
        let journal = try Journal.open(at: fixture.stateDirectory + "/journal.sqlite", onCorruption: .fail).journal
        defer { try? journal.close() }
        let records = try journal.tasks(limit: 10)
        #expect(records.map(\.state) == [.queued, .queued])
        #expect(records.allSatisfy { $0.spec.destinationDirectory == fixture.downloads })
    }

    @Test func anUnreadableJournalIsSetAsideAndTheUISaysSo() throws {
        // Given a state directory whose journal is not SQLite
        let work = try TemporaryDirectory(prefix: "ferry-tui-e2e")
        defer { work.remove() }
        let state = work.file("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try Data("this is not a database".utf8).write(to: state.appendingPathComponent("journal.sqlite"))
        // When ferry opens it
        let terminal = try TmuxTerminal(command: [try ferryExecutableURL().path, "--state-dir", state.path, "--dir", work.path], width: 120, height: 20)
        // Then the UI starts on an empty queue and the message line says where the old journal went
        #expect(terminal.waitUntil { terminal.screen().contains { $0.contains("moved aside to") } }, "\(terminal.screen())")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).contains { $0.hasPrefix("journal.sqlite.corrupt-") })
        try terminal.send("q")
        #expect(terminal.waitUntil { terminal.exitedCleanly(status: 0) })
        _ = try? runFerry(["stop", "--state-dir", state.path], timeout: .seconds(60))
    }

    @Test func downloadsAddedBothWaysProgressPauseResumeAndFinishByteExact() throws {
        // Given nginx serving two 24 MiB files at 2 MB/s (slow enough to watch), and ferry open
        let www = try TemporaryDirectory(worldReadable: true)
        defer { www.remove() }
        let size = 24 << 20
        try Pattern.writeFile(at: www.file("dialog.bin"), count: size, seed: 1)
        try Pattern.writeFile(at: www.file("shell.bin"), count: size, seed: 2)
        let nginx = try NginxServer.start(root: www.url, limitRate: "2m")
        defer { nginx.stop() }
        let fixture = try Fixture()
        let terminal = fixture.terminal
        #expect(terminal.waitUntil { terminal.screen().first?.hasPrefix(" Ferry ") == true })

        // When one download is added through the dialog and one from another shell
        try terminal.send("a")
        #expect(terminal.waitUntil { terminal.screen().contains { $0.contains("Add download") } })
        try terminal.type(nginx.url("dialog.bin").absoluteString)
        try terminal.send("Enter")
        #expect(terminal.waitUntil { fixture.row("dialog.bin") != nil }, "\(terminal.screen())")
        try fixture.addFromAnotherShell(nginx.url("shell.bin").absoluteString)

        // Then both run, and the percentage on each row moves
        var firstDialog: Int?
        var firstShell: Int?
        #expect(terminal.waitUntil(seconds: 30) {
            Self.starts(fixture.row("dialog.bin"), with: "⇣") && Self.starts(fixture.row("shell.bin"), with: "⇣")
                && Self.moved(fixture.percent("dialog.bin"), from: &firstDialog)
                && Self.moved(fixture.percent("shell.bin"), from: &firstShell)
        }, "\(terminal.screen())")
        #expect(terminal.screen().first?.contains("2 running") == true, "\(terminal.screen())")

        // When the first is paused
        try terminal.send("g", "Space")
        // Then its row says so while the other goes on
        #expect(terminal.waitUntil(seconds: 30) { Self.starts(fixture.row("dialog.bin"), with: "‖") }, "\(terminal.screen())")
        #expect(Self.starts(fixture.row("shell.bin"), with: "⇣", "✓"))
        // When it is resumed
        try terminal.send("Space")
        #expect(terminal.waitUntil(seconds: 30) { Self.starts(fixture.row("dialog.bin"), with: "⇣", "✓") }, "\(terminal.screen())")
        // Then both finish, byte-exact
        #expect(terminal.waitUntil(seconds: 120) {
            Self.starts(fixture.row("dialog.bin"), with: "✓") && Self.starts(fixture.row("shell.bin"), with: "✓")
        }, "\(terminal.screen())")
        #expect(try SHA256Hex.of(file: URL(fileURLWithPath: fixture.downloads + "/dialog.bin")) == Pattern.sha256Hex(count: size, seed: 1))
        #expect(try SHA256Hex.of(file: URL(fileURLWithPath: fixture.downloads + "/shell.bin")) == Pattern.sha256Hex(count: size, seed: 2))
        // And q exits 0 with the terminal restored
        try terminal.send("q")
        #expect(terminal.waitUntil { terminal.exitLine() != nil })
        #expect(terminal.exitedCleanly(status: 0), "\(terminal.exitLine() ?? "") \(terminal.standardError())")
    }

    @Test func aSplitDownloadShowsItsConnectionsAndAFileMapThatFills() throws {
        // Given a 16 MiB file served at 256 KiB/s per connection, and ferry open (attached to
        // the daemon it started)
        let www = try TemporaryDirectory(worldReadable: true)
        defer { www.remove() }
        try Pattern.writeFile(at: www.file("split.bin"), count: 16 << 20, seed: 3)
        let nginx = try NginxServer.start(root: www.url, limitRate: "256k")
        defer { nginx.stop() }
        let fixture = try Fixture(width: 100, height: 30)
        let terminal = fixture.terminal
        #expect(terminal.waitUntil { terminal.screen().first?.hasPrefix(" Ferry ") == true })

        // When it is added with four connections from another shell
        let added = try runFerry(["add", "--state-dir", fixture.stateDirectory, "-d", fixture.downloads, "-x", "4",
                                  nginx.url("split.bin").absoluteString], timeout: .seconds(60))
        try #require(added.exitStatus == 0, "\(String(decoding: added.standardError, as: UTF8.self))")

        // Then its row shows the four live connections before the speed, the details say so,
        // and the map of the file in the details fills as the ranges reach the disk
        #expect(terminal.waitUntil(seconds: 30) { fixture.row("split.bin")?.contains(" 4×") == true }, "\(terminal.screen())")
        #expect(terminal.waitUntil { terminal.screen().contains { $0.hasPrefix(" Connections 4") } }, "\(terminal.screen())")
        func map() -> String? {
            terminal.screen().first { $0.hasPrefix(" File map ") }.map { String($0.dropFirst(11)).trimmingCharacters(in: .whitespaces) }
        }
        var first: String?
        #expect(terminal.waitUntil(seconds: 30) {
            guard let now = map(), now.contains("▒") || now.contains("█") else { return false }
            if first == nil { first = now }
            return now != first && now.count == 32
        }, "\(terminal.screen())")
        try terminal.send("q")
        #expect(terminal.waitUntil { terminal.exitedCleanly(status: 0) })
    }

    /// `moved(_:from:)` remembers in `first` the first percentage seen and is true once
    /// `percent` differs from it.
    static func moved(_ percent: Int?, from first: inout Int?) -> Bool {
        guard let percent else { return false }
        guard let seen = first else {
            first = percent
            return false
        }
        return percent != seen
    }

    @Test func aSecondWindowAttachesToTheSameDaemonAndSeesTheSameTransfers() throws {
        // Given ferry open on a state directory, a slow download running in its daemon
        let www = try TemporaryDirectory(worldReadable: true)
        defer { www.remove() }
        let nginx = try Self.slowFiles(["shared.bin"], in: www)
        defer { nginx.stop() }
        let fixture = try Fixture()
        #expect(fixture.terminal.waitUntil { fixture.terminal.screen().first?.hasPrefix(" Ferry ") == true })
        try fixture.addFromAnotherShell(nginx.url("shared.bin").absoluteString)
        #expect(fixture.terminal.waitUntil { Self.starts(fixture.row("shared.bin"), with: "⇣") }, "\(fixture.terminal.screen())")
        // When a second ferry opens the same directory in another terminal
        let ferry = try ferryExecutableURL().path
        let second = try TmuxTerminal(command: [ferry, "tui", "--state-dir", fixture.stateDirectory], width: 80, height: 10)
        // Then it attaches and shows the same transfer running
        #expect(second.waitUntil { second.screen().contains { $0.dropFirst(2).hasPrefix("shared.bin ") && $0.hasPrefix("⇣ ") } },
                "\(second.screen()) \(second.standardError())")
        // And when the first quits, the second still follows the transfer
        try fixture.terminal.send("q")
        #expect(fixture.terminal.waitUntil { fixture.terminal.exitedCleanly(status: 0) })
        #expect(second.screen().contains { $0.hasPrefix("⇣ shared.bin ") })
        try second.send("q")
        #expect(second.waitUntil { second.exitedCleanly(status: 0) })
    }

    @Test func aFerryNextToAGetThatRunsItsOwnDownloadsSaysWhoHoldsItAndExits2() throws {
        // Given `ferry get` running a slow download on a state directory (its engine runs only
        // its own downloads: what a window added there would wait)
        let www = try TemporaryDirectory(worldReadable: true)
        defer { www.remove() }
        let nginx = try Self.slowFiles(["held.bin"], in: www)
        defer { nginx.stop() }
        let work = try TemporaryDirectory(prefix: "ferry-tui-e2e")
        defer { work.remove() }
        let state = work.file("state").path
        let ferry = try ferryExecutableURL().path
        let holder = try TmuxTerminal(command: [ferry, "get", "--state-dir", state, "-d", work.path, nginx.url("held.bin").absoluteString],
                                      width: 80, height: 10)
        #expect(holder.waitUntil { holder.standardError().contains("downloading") }, "\(holder.standardError())")
        #expect(holder.waitUntil { FileManager.default.fileExists(atPath: state + "/control.sock") })
        // When ferry opens the same directory in another terminal
        let second = try TmuxTerminal(command: [ferry, "tui", "--state-dir", state], width: 80, height: 10)
        // Then it names the holder, says what it is and how to watch such runs, and exits 2,
        // the terminal untouched
        #expect(second.waitUntil { second.exitLine() != nil })
        #expect(second.exitedCleanly(status: 2))
        #expect(second.standardError().contains("another ferry (pid "))
        #expect(second.standardError().contains("it is a ferry get"), "\(second.standardError())")
        #expect(second.standardError().contains("Start ferry daemon first"), "\(second.standardError())")
        try holder.send("C-c")
        #expect(holder.waitUntil { holder.screen().contains { $0.contains("EXIT=130") } }, "\(holder.screen()) \(holder.standardError())")
    }

    @Test func aFerryNextToAResumeAttachesToItsEngineAndFollowsTheTransfer() throws {
        // Given `ferry resume` running a slow download on a state directory
        let www = try TemporaryDirectory(worldReadable: true)
        defer { www.remove() }
        let nginx = try Self.slowFiles(["held.bin"], in: www)
        defer { nginx.stop() }
        let work = try TemporaryDirectory(prefix: "ferry-tui-e2e")
        defer { work.remove() }
        let state = work.file("state").path
        let ferry = try ferryExecutableURL().path
        #expect(try runFerry(["add", "--state-dir", state, "-d", work.path, nginx.url("held.bin").absoluteString]).exitStatus == 0)
        let holder = try TmuxTerminal(command: [ferry, "resume", "--state-dir", state], width: 80, height: 10)
        #expect(holder.waitUntil { holder.standardError().contains("started") }, "\(holder.standardError())")
        // When ferry opens the same directory in another terminal
        let second = try TmuxTerminal(command: [ferry, "tui", "--state-dir", state], width: 80, height: 10)
        // Then the window follows the transfer that ferry resume runs (no daemon of its own)
        #expect(second.waitUntil { second.screen().contains { $0.hasPrefix("⇣ held.bin ") } }, "\(second.screen()) \(second.standardError())")
        // And when the window quits, ferry resume goes on; Ctrl-C there stops it as before
        try second.send("q")
        #expect(second.waitUntil { second.exitedCleanly(status: 0) }, "\(second.screen()) \(second.standardError())")
        #expect(holder.exitLine() == nil)
        try holder.send("C-c")
        #expect(holder.waitUntil { holder.screen().contains { $0.contains("EXIT=130") } }, "\(holder.screen()) \(holder.standardError())")
    }

    @Test func ctrlCQuitsCleanlyAndKeepsTheQueue() throws {
        // Given ferry open with one slow download added from another shell, running
        let www = try TemporaryDirectory(worldReadable: true)
        defer { www.remove() }
        let nginx = try Self.slowFiles(["kept.bin"], in: www)
        defer { nginx.stop() }
        let fixture = try Fixture(width: 60, height: 16)
        let terminal = fixture.terminal
        #expect(terminal.waitUntil { terminal.screen().first?.hasPrefix(" Ferry ") == true })
        try fixture.addFromAnotherShell(nginx.url("kept.bin").absoluteString)
        #expect(terminal.waitUntil { Self.starts(fixture.row("kept.bin"), with: "⇣") }, "\(terminal.screen())")
        // When the user presses Ctrl-C
        try terminal.send("C-c")
        // Then ferry ends with the terminal restored, the transfer going on in the daemon; once
        // the daemon is stopped, the task is queued for next time
        #expect(terminal.waitUntil { terminal.exitLine() != nil })
        #expect(terminal.exitedCleanly(status: 0), "\(terminal.exitLine() ?? "")")
        fixture.stopDaemon()
        let journal = try Journal.open(at: fixture.stateDirectory + "/journal.sqlite", onCorruption: .fail).journal
        defer { try? journal.close() }
        #expect(try journal.tasks(limit: 10).map(\.state) == [.queued])
    }

    @Test func shiftQAsksThenStopsTheDaemonAndTheTransfersStayQueued() throws {
        // Given ferry open with one slow download running in its daemon
        let www = try TemporaryDirectory(worldReadable: true)
        defer { www.remove() }
        let nginx = try Self.slowFiles(["stopped.bin"], in: www)
        defer { nginx.stop() }
        let fixture = try Fixture(width: 80, height: 16)
        let terminal = fixture.terminal
        #expect(terminal.waitUntil { terminal.screen().first?.hasPrefix(" Ferry ") == true })
        try fixture.addFromAnotherShell(nginx.url("stopped.bin").absoluteString)
        #expect(terminal.waitUntil { Self.starts(fixture.row("stopped.bin"), with: "⇣") }, "\(terminal.screen())")
        // When the user presses Q and answers y
        try terminal.send("Q")
        #expect(terminal.waitUntil { terminal.screen().contains { $0.contains("Quit and stop them?") } }, "\(terminal.screen())")
        try terminal.send("y")
        // Then ferry exits 0 once the daemon stopped, and the task is queued for next time
        #expect(terminal.waitUntil(seconds: 30) { terminal.exitLine() != nil })
        #expect(terminal.exitedCleanly(status: 0), "\(terminal.exitLine() ?? "") \(terminal.standardError())")
        #expect(terminal.standardError().contains("daemon stopped"), "\(terminal.standardError())")
        let lock = try EngineLock.acquire(at: fixture.stateDirectory + "/engine.lock")
        lock.release()
        let journal = try Journal.open(at: fixture.stateDirectory + "/journal.sqlite", onCorruption: .fail).journal
        defer { try? journal.close() }
        #expect(try journal.tasks(limit: 10).map(\.state) == [.queued])
    }

    @Test func theDaemonStartedForTheWindowStaysWhileItIsOpenAndLeavesWhenNothingIsLeft() throws {
        // Given ferry open on an empty queue (its daemon started for it)
        let fixture = try Fixture(width: 80, height: 12)
        let terminal = fixture.terminal
        #expect(terminal.waitUntil { terminal.screen().first?.hasPrefix(" Ferry ") == true })
        let lockPath = fixture.stateDirectory + "/engine.lock"
        // When the window stays open longer than the daemon's idle grace
        Thread.sleep(forTimeInterval: 6)
        // Then the daemon still holds the queue: the window counts as a client
        #expect(throws: (any Error).self) { try EngineLock.acquire(at: lockPath).release() }
        // When the window closes with nothing left to run
        try terminal.send("q")
        #expect(terminal.waitUntil { terminal.exitedCleanly(status: 0) })
        // Then the daemon leaves by itself within a few seconds
        var released = false
        #expect(terminal.waitUntil(seconds: 20) {
            guard let lock = try? EngineLock.acquire(at: lockPath) else { return false }
            lock.release()
            released = true
            return true
        })
        #expect(released)
    }

    @Test func withoutATerminalFerrySaysSoAndExits2() throws {
        // Given a state directory
        let work = try TemporaryDirectory(prefix: "ferry-tui-e2e")
        defer { work.remove() }
        // When ferry runs with standard input and output not a terminal
        let result = try run(executable: try ferryExecutableURL().path, arguments: ["--state-dir", work.file("state").path], timeout: .seconds(60))
        // Then it explains and exits 2, without taking the queue
        #expect(result.exitStatus == 2)
        #expect(String(decoding: result.standardError, as: UTF8.self).contains("needs a terminal"))
        #expect(!FileManager.default.fileExists(atPath: work.file("state").path))
    }
}
