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

        init(arguments: [String] = [], width: Int = 80, height: Int = 24) throws {
            work = try TemporaryDirectory(prefix: "ferry-tui-e2e")
            try FileManager.default.createDirectory(atPath: work.file("downloads").path, withIntermediateDirectories: true)
            let ferry = try ferryExecutableURL().path
            terminal = try TmuxTerminal(
                command: [ferry, "--state-dir", work.file("state").path, "--dir", work.file("downloads").path] + arguments,
                environment: ["NO_COLOR": "1"], width: width, height: height
            )
        }

        deinit { work.remove() }

        /// `addFromAnotherShell(_:)` queues a download the way `ferry add` in a second shell
        /// does: through a journal connection of its own, while the UI holds the engine lock.
        func addFromAnotherShell(_ url: String) throws {
            let journal = try Journal.open(at: stateDirectory + "/journal.sqlite", onCorruption: .fail).journal
            defer { try? journal.close() }
            _ = try journal.insert(NewTask(spec: TaskSpec(urls: [TransferURL(validating: url)], destinationDirectory: downloads)))
        }

        /// `row(_:)` is the table line of the task named `name`, `nil` when it is not shown.
        func row(_ name: String) -> String? {
            terminal.screen().first { $0.dropFirst(2).hasPrefix(name + " ") }
        }
    }

    @Test func listsAddsPausesFiltersHelpsResizesAndQuitsCleanly() throws {
        // Given ferry open on an empty queue
        let fixture = try Fixture()
        let terminal = fixture.terminal
        #expect(terminal.waitUntil { terminal.screen().first?.hasPrefix(" Ferry ") == true }, "\(terminal.screen()) \(terminal.standardError())")

        // When another shell queues a download
        try fixture.addFromAnotherShell("http://127.0.0.1:9/from-shell.bin")
        // Then it appears without a key press
        #expect(terminal.waitUntil { fixture.row("from-shell.bin")?.hasPrefix("◌ ") == true })

        // When a download is added through the dialog
        try terminal.send("a")
        #expect(terminal.waitUntil { terminal.screen().contains { $0.contains("Add download") } })
        try terminal.type("http://127.0.0.1:9/from-dialog.iso")
        try terminal.send("Enter")
        // Then it is listed, queued, after the first
        #expect(terminal.waitUntil { fixture.row("from-dialog.iso")?.hasPrefix("◌ ") == true })
        let screen = terminal.screen()
        let first = try #require(screen.firstIndex { $0.contains("from-shell.bin") })
        let second = try #require(screen.firstIndex { $0.contains("from-dialog.iso") })
        #expect(first < second)

        // When the selected (first) task is paused, then resumed
        try terminal.send("g", "Space")
        #expect(terminal.waitUntil { fixture.row("from-shell.bin")?.hasPrefix("‖ ") == true })
        #expect(terminal.screen().first?.contains("1 paused") == true)
        try terminal.send("Space")
        #expect(terminal.waitUntil { fixture.row("from-shell.bin")?.hasPrefix("◌ ") == true })

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

        // When the window shrinks to 60x16 and grows back
        #expect(terminal.waitUntil { fixture.row("from-shell.bin") != nil })
        let before = terminal.screen()
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
        #expect(terminal.waitUntil { terminal.screen() == before }, "\(terminal.screen())")

        // When the user quits
        try terminal.send("q")
        // Then ferry exits 0 with the terminal restored, and the queue is kept
        #expect(terminal.waitUntil { terminal.exitLine() != nil })
        #expect(terminal.exitedCleanly(status: 0), "\(terminal.exitLine() ?? "") \(terminal.standardError())")
        let journal = try Journal.open(at: fixture.stateDirectory + "/journal.sqlite", onCorruption: .fail).journal
        defer { try? journal.close() }
        let records = try journal.tasks(limit: 10)
        #expect(records.map(\.state) == [.queued, .queued])
        #expect(records.last?.spec.destinationDirectory == fixture.downloads)
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
    }

    @Test(.disabled("runs once the queue's scheduler drives the transfers of the terminal UI"))
    func downloadsAddedBothWaysProgressPauseResumeAndFinishByteExact() throws {
        // Given nginx serving two 24 MiB files slowly enough to watch, and ferry open
        let www = try TemporaryDirectory(worldReadable: true)
        defer { www.remove() }
        let size = 24 << 20
        try Pattern.writeFile(at: www.file("dialog.bin"), count: size, seed: 1)
        try Pattern.writeFile(at: www.file("shell.bin"), count: size, seed: 2)
        let nginx = try NginxServer.start(root: www.url, limitRate: "4m")
        defer { nginx.stop() }
        let fixture = try Fixture()
        let terminal = fixture.terminal
        #expect(terminal.waitUntil { terminal.screen().first?.hasPrefix(" Ferry ") == true })

        // When one download is added through the dialog and one from another shell
        try terminal.send("a")
        try terminal.type(nginx.url("dialog.bin").absoluteString)
        try terminal.send("Enter")
        try fixture.addFromAnotherShell(nginx.url("shell.bin").absoluteString)

        // Then the first runs and shows progress
        #expect(terminal.waitUntil(seconds: 30) { fixture.row("dialog.bin")?.hasPrefix("⇣ ") == true && fixture.row("dialog.bin")?.contains("%") == true })
        // When it is paused and resumed
        try terminal.send("g", "Space")
        #expect(terminal.waitUntil(seconds: 30) { fixture.row("dialog.bin")?.hasPrefix("‖ ") == true })
        try terminal.send("Space")
        // Then both finish, byte-exact
        #expect(terminal.waitUntil(seconds: 120) { fixture.row("dialog.bin")?.hasPrefix("✓ ") == true && fixture.row("shell.bin")?.hasPrefix("✓ ") == true })
        #expect(try SHA256Hex.of(file: URL(fileURLWithPath: fixture.downloads + "/dialog.bin")) == Pattern.sha256Hex(count: size, seed: 1))
        #expect(try SHA256Hex.of(file: URL(fileURLWithPath: fixture.downloads + "/shell.bin")) == Pattern.sha256Hex(count: size, seed: 2))
        try terminal.send("q")
        #expect(terminal.waitUntil { terminal.exitedCleanly(status: 0) })
    }

    @Test func aSecondFerryOnTheSameQueueSaysWhoHoldsItAndExits2() throws {
        // Given ferry open on a state directory
        let fixture = try Fixture()
        #expect(fixture.terminal.waitUntil { fixture.terminal.screen().first?.hasPrefix(" Ferry ") == true })
        // When a second ferry opens the same directory in another terminal
        let ferry = try ferryExecutableURL().path
        let second = try TmuxTerminal(command: [ferry, "tui", "--state-dir", fixture.stateDirectory], width: 80, height: 10)
        // Then it names the holder and exits 2, the terminal untouched
        #expect(second.waitUntil { second.exitLine() != nil })
        #expect(second.exitedCleanly(status: 2))
        #expect(second.standardError().contains("another ferry (pid "))
        try fixture.terminal.send("q")
        #expect(fixture.terminal.waitUntil { fixture.terminal.exitedCleanly(status: 0) })
    }

    @Test func ctrlCQuitsCleanlyAndKeepsTheQueue() throws {
        // Given ferry open with one task queued from another shell
        let fixture = try Fixture(width: 60, height: 16)
        let terminal = fixture.terminal
        #expect(terminal.waitUntil { terminal.screen().first?.hasPrefix(" Ferry ") == true })
        try fixture.addFromAnotherShell("http://127.0.0.1:9/kept.bin")
        #expect(terminal.waitUntil { fixture.row("kept.bin") != nil })
        // When the user presses Ctrl-C
        try terminal.send("C-c")
        // Then ferry ends with the terminal restored and the task still queued
        #expect(terminal.waitUntil { terminal.exitLine() != nil })
        #expect(terminal.exitedCleanly(status: 0), "\(terminal.exitLine() ?? "")")
        let journal = try Journal.open(at: fixture.stateDirectory + "/journal.sqlite", onCorruption: .fail).journal
        defer { try? journal.close() }
        #expect(try journal.tasks(limit: 10).map(\.state) == [.queued])
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
