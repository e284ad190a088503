import FerryQueue
import FerryTestSupport
import Foundation
import Testing

/// The real `ferry` UI in tmux: bracketed paste, the keys htop users try, the full-text view
/// and the purge of finished tasks.
@Suite(.enabled(if: TmuxTerminal.isAvailable))
struct TerminalPasteAndKeysTests {
    typealias Fixture = TerminalCommandTests.Fixture

    static func starts(_ line: String?, with glyphs: String...) -> Bool {
        guard let line else { return false }
        return glyphs.contains { line.hasPrefix($0 + " ") }
    }

    /// `paste(_:into:)` pastes `text` the way a terminal does when the application asked for
    /// bracketed paste (tmux adds the markers only then); line feeds arrive as returns.
    static func paste(_ text: String, into terminal: TmuxTerminal) throws {
        try terminal.tmux(["set-buffer", "--", text])
        try terminal.tmux(["paste-buffer", "-p"])
    }

    /// `journal(_:)` is the fixture's journal once its daemon stopped (transfers kept queued).
    static func journal(_ fixture: Fixture) throws -> Journal {
        fixture.stopDaemon()
        return try Journal.open(at: fixture.stateDirectory + "/journal.sqlite", onCorruption: .fail).journal
    }

    /// `diagnosis(_:)` is what a failed naming check needs: the downloads directory, each
    /// task's state and file name, and the end of the daemon's log.
    static func diagnosis(_ fixture: Fixture) -> String {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: fixture.downloads).sorted()) ?? []
        // Read beside the daemon (WAL), which goes on running for the rest of the test.
        let opened = try? Journal.open(at: fixture.stateDirectory + "/journal.sqlite", onCorruption: .fail).journal
        let tasks = (opened.map { journal in
            defer { try? journal.close() }
            return ((try? journal.tasks(limit: 10)) ?? []).map { "#\($0.id.rawValue) \($0.state) \($0.fileName ?? "-") attempts \($0.attempts)" }
        }) ?? []
        let log = (try? String(contentsOfFile: fixture.stateDirectory + "/ferry.log", encoding: .utf8)) ?? "(no ferry.log)"
        return "files: \(files)\ntasks: \(tasks)\nlog: \(log.suffix(3000))"
    }

    @Test func twoURLsPastedIntoTheAddDialogWithXAndDAreTwoTasksAndNothingIsRemoved() throws {
        // Given nginx with three small files, and ferry showing one finished task, selected
        let www = try TemporaryDirectory(worldReadable: true)
        defer { www.remove() }
        for name in ["keep.bin", "x-one.bin", "d-two.bin"] { try Pattern.writeFile(at: www.file(name), count: 4096, seed: 3) }
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let fixture = try Fixture()
        let terminal = fixture.terminal
        #expect(terminal.waitUntil { terminal.screen().first?.hasPrefix(" Ferry ") == true }, "\(terminal.screen()) \(terminal.standardError())")
        try fixture.addFromAnotherShell(nginx.url("keep.bin").absoluteString)
        #expect(terminal.waitUntil { Self.starts(fixture.row("keep.bin"), with: "✓") }, "\(terminal.screen())")
        try terminal.send("g")

        // When two URLs, whose text holds x (remove) and d (delete the file), are pasted into the add dialog
        try terminal.send("a")
        #expect(terminal.waitUntil { terminal.screen().contains { $0.contains("Add download") } })
        try Self.paste(nginx.url("x-one.bin").absoluteString + "\n" + nginx.url("d-two.bin").absoluteString + "\n", into: terminal)
        // Then the dialog holds both and waits for one confirmation
        #expect(terminal.waitUntil { terminal.screen().contains { $0.contains("2 URLs: Enter adds 2 downloads") } }, "\(terminal.screen())")
        try terminal.send("Enter")
        // And both are added and finish, and the selected task and its file are still there
        let bothDone = terminal.waitUntil {
            Self.starts(fixture.row("x-one.bin"), with: "✓") && Self.starts(fixture.row("d-two.bin"), with: "✓")
        }
        // Seen twice under load: x-one saved as x-one.1.bin, as if its name had been taken.
        // What the directory, the journal and the log then held says by whom.
        #expect(bothDone, "\(terminal.screen())\n\(Self.diagnosis(fixture))")
        #expect(Self.starts(fixture.row("keep.bin"), with: "✓"))
        #expect(FileManager.default.fileExists(atPath: fixture.downloads + "/keep.bin"))

        // When text with x and d is pasted outside any dialog
        try Self.paste("x\nd\n", into: terminal)
        // Then it opens the add dialog with it instead of acting as keys; Escape leaves it
        #expect(terminal.waitUntil { terminal.screen().contains { $0.contains("│ URL       x d") } }, "\(terminal.screen())")
        try terminal.send("Escape")
        #expect(terminal.waitUntil { !terminal.screen().contains { $0.contains("Add download") } })

        try terminal.send("q")
        #expect(terminal.waitUntil { terminal.exitLine() != nil })
        #expect(terminal.exitedCleanly(status: 0), "\(terminal.exitLine() ?? "") \(terminal.standardError())")
        let journal = try Self.journal(fixture)
        defer { try? journal.close() }
        #expect(try journal.tasks(limit: 10).map(\.state) == [.done, .done, .done])
        #expect(FileManager.default.fileExists(atPath: fixture.downloads + "/keep.bin"))
    }

    @Test func functionKeysHelpFilterRemoveAndQuitAndTheFooterSaysResume() throws {
        // Given ferry with one slow download running
        let www = try TemporaryDirectory(worldReadable: true)
        defer { www.remove() }
        let nginx = try TerminalCommandTests.slowFiles(["slow.bin"], in: www)
        defer { nginx.stop() }
        let fixture = try Fixture()
        let terminal = fixture.terminal
        #expect(terminal.waitUntil { terminal.screen().first?.hasPrefix(" Ferry ") == true })
        try fixture.addFromAnotherShell(nginx.url("slow.bin").absoluteString)
        #expect(terminal.waitUntil { Self.starts(fixture.row("slow.bin"), with: "⇣") }, "\(terminal.screen())")

        // F1 opens the help, with its hints once; F1 closes it
        try terminal.send("F1")
        #expect(terminal.waitUntil { terminal.screen().contains { $0.contains("─ Help ─") } }, "\(terminal.screen())")
        #expect(terminal.screen().joined(separator: "\n").ranges(of: "Esc Close").count == 1)
        try terminal.send("F1")
        #expect(terminal.waitUntil { !terminal.screen().contains { $0.contains("─ Help ─") } })

        // F3 opens the filter; a filter matching nothing empties the list; Escape clears it
        try terminal.send("F3")
        try terminal.type("state:failed")
        try terminal.send("Enter")
        #expect(terminal.waitUntil { terminal.screen().contains { $0.contains("No task matches “state:failed”.") } }, "\(terminal.screen())")
        try terminal.send("Escape")
        #expect(terminal.waitUntil { fixture.row("slow.bin") != nil })

        // Pausing the task turns the footer's Pause into Resume
        try terminal.send("Space")
        #expect(terminal.waitUntil { Self.starts(fixture.row("slow.bin"), with: "‖") }, "\(terminal.screen())")
        #expect(terminal.waitUntil { terminal.screen().contains { $0.contains("Space Resume") } }, "\(terminal.screen())")

        // F9 asks to remove the task; n keeps it
        try terminal.send("F9")
        #expect(terminal.waitUntil { terminal.screen().contains { $0.contains("Remove “slow.bin”?") } }, "\(terminal.screen())")
        try terminal.send("n")
        #expect(terminal.waitUntil { !terminal.screen().contains { $0.contains("Remove “slow.bin”?") } })
        #expect(fixture.row("slow.bin") != nil)

        // F10 quits, the terminal restored
        try terminal.send("F10")
        #expect(terminal.waitUntil { terminal.exitLine() != nil })
        #expect(terminal.exitedCleanly(status: 0), "\(terminal.exitLine() ?? "") \(terminal.standardError())")
        let journal = try Self.journal(fixture)
        defer { try? journal.close() }
        #expect(try journal.tasks(limit: 10).map(\.state) == [.paused])
    }

    @Test func aLongErrorIsReadInFullFromTheDetails() throws {
        // Given a failed task whose error is far longer than the detail pane
        let error = "HTTP 502 Bad Gateway from the upstream: " + (1...400).map { "word\($0)" }.joined(separator: " ") + " THE-END"
        let fixture = try Fixture(width: 80, height: 24) { state, downloads in
            let journal = try Journal.open(at: state + "/journal.sqlite").journal
            defer { try? journal.close() }
            let id = try journal.insert(NewTask(spec: TaskSpec(
                urls: [try TransferURL(validating: "http://127.0.0.1:9/broken.iso")], destinationDirectory: downloads)))
            try journal.updateState(id, to: .running)
            try journal.recordAttempt(id, error: error)
            try journal.updateState(id, to: .failed)
        }
        let terminal = fixture.terminal
        #expect(terminal.waitUntil { Self.starts(fixture.row("broken.iso"), with: "✗") }, "\(terminal.screen()) \(terminal.standardError())")
        // The detail pane cuts the error and says so
        #expect(terminal.waitUntil { terminal.screen().contains { $0.hasPrefix("─ Details ") && $0.contains("v full text") } }, "\(terminal.screen())")
        #expect(!terminal.screen().joined().contains("THE-END"))

        // When v opens the full text
        try terminal.send("v")
        #expect(terminal.waitUntil { terminal.screen().contains { $0.contains("Last error:") } }, "\(terminal.screen())")
        // Then it starts with the error's first words, wrapped at spaces
        func shown() -> String { terminal.screen().joined(separator: " ").filter { !$0.isWhitespace && $0 != "│" } }
        #expect(shown().contains("HTTP502BadGatewayfromtheupstream:word1word2"), "\(terminal.screen())")
        #expect(!shown().contains("THE-END"))
        #expect(terminal.screen().contains { $0.hasPrefix("│ word") })
        // And End scrolls to its last words
        try terminal.send("End")
        #expect(terminal.waitUntil { shown().contains("word399word400THE-END") }, "\(terminal.screen())")
        #expect(!shown().contains("word1word2"))

        // And Escape goes back to the list
        try terminal.send("Escape")
        #expect(terminal.waitUntil { fixture.row("broken.iso") != nil })
        try terminal.send("q")
        #expect(terminal.waitUntil { terminal.exitLine() != nil })
        #expect(terminal.exitedCleanly(status: 0), "\(terminal.exitLine() ?? "") \(terminal.standardError())")
    }

    @Test func finishedGetTasksShowTheirSizeAndXPurgesThem() throws {
        // Given two files fetched with ferry get and a download that fails
        let www = try TemporaryDirectory(worldReadable: true)
        defer { www.remove() }
        try Pattern.writeFile(at: www.file("small1.dat"), count: 3 << 20, seed: 1)
        try Pattern.writeFile(at: www.file("small2.dat"), count: 1536, seed: 2)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let fixture = try Fixture(width: 100, height: 24) { state, downloads in
            let get = try runFerry(["get", "--state-dir", state, "-d", downloads,
                                    nginx.url("small1.dat").absoluteString, nginx.url("small2.dat").absoluteString], timeout: .seconds(60))
            try #require(get.exitStatus == 0, "\(String(decoding: get.standardError, as: UTF8.self))")
            let add = try runFerry(["add", "--state-dir", state, "-d", downloads, "--retries", "0",
                                    nginx.url("missing.dat").absoluteString], timeout: .seconds(60))
            try #require(add.exitStatus == 0)
        }
        let terminal = fixture.terminal
        // Then the finished ones show their size and 100 %, and the missing one fails
        #expect(terminal.waitUntil { Self.starts(fixture.row("missing.dat"), with: "✗") }, "\(terminal.screen()) \(terminal.standardError())")
        let first = try #require(fixture.row("small1.dat"))
        #expect(Self.starts(first, with: "✓") && first.contains("3.0 MiB") && first.contains("━━━━") && first.contains("100%"), "\(first)")
        let second = try #require(fixture.row("small2.dat"))
        #expect(second.contains("1.5 KiB") && second.contains("100%"), "\(second)")

        // When X asks and y removes the done tasks
        try terminal.send("X")
        #expect(terminal.waitUntil { terminal.screen().contains { $0.contains("2 done, 1 failed") } }, "\(terminal.screen())")
        try terminal.send("y")
        // Then they leave the list, their files stay, and the failed one is kept
        #expect(terminal.waitUntil { fixture.row("small1.dat") == nil && fixture.row("small2.dat") == nil }, "\(terminal.screen())")
        #expect(terminal.waitUntil { terminal.screen().contains { $0.contains("Removed 2 done tasks; files kept") } }, "\(terminal.screen())")
        #expect(fixture.row("missing.dat") != nil)
        #expect(FileManager.default.fileExists(atPath: fixture.downloads + "/small1.dat"))
        #expect(FileManager.default.fileExists(atPath: fixture.downloads + "/small2.dat"))

        try terminal.send("q")
        #expect(terminal.waitUntil { terminal.exitLine() != nil })
        #expect(terminal.exitedCleanly(status: 0), "\(terminal.exitLine() ?? "") \(terminal.standardError())")
        let journal = try Self.journal(fixture)
        defer { try? journal.close() }
        #expect(try journal.tasks(limit: 10).map(\.state) == [.failed])
    }
}
