import FerryTestSupport
import Foundation
import Testing
@testable import FerryTUI

/// `TmuxSession` drives this test bundle's `fixtureApp()` inside a private tmux server
/// (FerryTestSupport's `TmuxTerminal`), and reads the commands the fixture logged.
final class TmuxSession {
    let terminal: TmuxTerminal
    let logDirectory: TemporaryDirectory
    var logPath: String { logDirectory.file("commands.log").path }

    init(width: Int, height: Int) throws {
        let log = try TemporaryDirectory(prefix: "ferrytui-log")
        logDirectory = log
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let logPath = log.file("commands.log").path
        terminal = try TmuxTerminal(
            command: [executable, "--testing-library", "swift-testing", "--filter", "fixtureApp"],
            environment: ["FERRY_TUI_FIXTURE_LOG": logPath], width: width, height: height)
    }

    deinit {
        logDirectory.remove()
    }

    func screen() -> [String] { terminal.screen() }

    func commands() -> [String] {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func send(_ keys: String...) throws { try terminal.tmux(["send-keys"] + keys) }

    func type(_ text: String) throws { try terminal.type(text) }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String { try terminal.tmux(arguments) }

    func waitUntil(_ condition: () -> Bool) -> Bool { terminal.waitUntil(condition) }
}

@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")))
struct TerminalTmuxTests {
    @Test func realTerminalDrawsHandlesKeysAndResizesAndRestoresOnQuit() throws {
        // Given the front end running in an 80x24 terminal
        let session = try TmuxSession(width: 80, height: 24)
        #expect(session.waitUntil { session.screen().contains { $0.hasPrefix(" Ferry  1 running · 1 queued · 1 failed") } })
        let table = session.screen()
        #expect(table[2].hasPrefix("⇣ ubuntu.iso "))
        #expect(table[3].hasPrefix("◌ 日本語のファイル名.zip "))
        #expect(table[4].hasPrefix("✗ evil\u{FFFD}gpj.exe 📷 "))

        // When the second task is selected and paused
        try session.send("Down", "Space")
        // Then the command comes out and the row follows the application's update
        #expect(session.waitUntil { session.commands() == ["pause(2)"] })
        #expect(session.waitUntil { session.screen()[3].hasPrefix("‖ 日本語のファイル名.zip ") })

        // When a download is added with a pasted URL typed through the dialog
        try session.send("a")
        try session.type("https://例え.jp/" + String(repeating: "x", count: 100))
        #expect(session.waitUntil { session.screen().contains { $0.contains("│ URL       …xxxxxxx") } })
        try session.send("Enter")
        #expect(session.waitUntil { session.commands().count == 2 })
        #expect(session.commands().last?.hasPrefix("addDownload(FerryTUI.DownloadRequest(url: \"https://例え.jp/xxx") == true)

        // When the terminal shrinks below the minimum and grows again
        try session.tmux(["resize-window", "-x", "30", "-y", "6"])
        #expect(session.waitUntil { session.screen().contains { $0.contains("Terminal too small: 30x6") } })
        try session.tmux(["resize-window", "-x", "60", "-y", "12"])
        #expect(session.waitUntil { session.screen().first?.hasPrefix(" Ferry ") == true && session.screen().count >= 12 })

        // When the user quits
        try session.send("q")
        // Then the application hears about it and the terminal is back in cooked mode
        #expect(session.waitUntil { session.terminal.exitLine() != nil })
        #expect(session.terminal.exitedCleanly())
        #expect(session.commands().last == "quit")
    }

    @Test func interruptQuitsCleanlyAndRestoresTheTerminal() throws {
        let session = try TmuxSession(width: 60, height: 12)
        #expect(session.waitUntil { session.screen().first?.hasPrefix(" Ferry ") == true })
        try session.send("C-c")
        #expect(session.waitUntil { session.terminal.exitLine() != nil })
        #expect(session.terminal.exitedCleanly())
        #expect(session.commands() == ["quit"])
    }
}
