import Foundation
import Testing
@testable import FerryTUI

/// `TmuxSession` drives this test bundle's `fixtureApp()` inside a private tmux server.
final class TmuxSession {
    let directory: URL
    var logPath: String { directory.appendingPathComponent("commands.log").path }

    init(width: Int, height: Int) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ferrytui-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let errors = directory.appendingPathComponent("stderr").path
        // `trap : INT` keeps this shell alive through Ctrl-C (as an interactive shell would)
        // while the front end, after exec, gets the default disposition.
        let script = """
            trap : INT; FERRY_TUI_FIXTURE_LOG='\(logPath)' '\(executable)' --testing-library swift-testing --filter fixtureApp 2>'\(errors)'; \
            status=$?; modes=$(stty -a | tr ' ;' '\\n\\n' | grep -x -e '-\\{0,1\\}echo' -e '-\\{0,1\\}icanon' | tr '\\n' ' '); \
            echo "FIXTURE-EXIT=$status MODES=$modes"; sleep 600
            """
        try tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", "sh", "-c", script], captureOutput: false)
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: directory)
    }

    /// `tmux(_:captureOutput:)` runs a tmux client against this session's private server,
    /// whose socket lives in the session's temporary directory.
    ///
    /// The client is spawned directly because the server that `new-session` forks inherits
    /// its descriptors and signal mask: output goes to a file (a pipe would never see EOF)
    /// and the mask is cleared (the test runner blocks signals the front end must receive).
    @discardableResult
    func tmux(_ arguments: [String], captureOutput: Bool = true) throws -> String {
        let outputPath = directory.appendingPathComponent("tmux-output").path
        let argv = ["tmux", "-S", directory.appendingPathComponent("socket").path, "-f", "/dev/null"] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, captureOutput ? outputPath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGCHLD, SIGPIPE, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let status = posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, cArguments, environ)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
        var exitStatus: Int32 = 0
        while waitpid(pid, &exitStatus, 0) < 0, errno == EINTR {}
        return captureOutput ? ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "") : ""
    }

    func screen() -> [String] {
        ((try? tmux(["capture-pane", "-p"])) ?? "").components(separatedBy: "\n")
    }

    func commands() -> [String] {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func send(_ keys: String...) throws { try tmux(["send-keys"] + keys) }

    func type(_ text: String) throws { try tmux(["send-keys", "-l", text]) }

    /// `waitUntil(_:)` re-checks a condition until it holds or ten seconds pass.
    func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }
}

@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")))
struct TerminalTmuxTests {
    /// `exitLine(_:)` is the fixture's last line once it has ended, `nil` before.
    static func exitLine(_ session: TmuxSession) -> String? {
        session.screen().first { $0.hasPrefix("FIXTURE-EXIT=") }
    }

    /// `isCleanExit(_:)` is true when the fixture exited with status 0 and left the terminal
    /// with echo and canonical input on (stty shows `-echo`/`-icanon` when they are off).
    static func isCleanExit(_ line: String?) -> Bool {
        guard let line, let modes = line.split(separator: "MODES=").last else { return false }
        return line.hasPrefix("FIXTURE-EXIT=0 ") && Set(modes.split(separator: " ").map(String.init)) == ["echo", "icanon"]
    }

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
        #expect(session.waitUntil { Self.exitLine(session) != nil })
        #expect(Self.isCleanExit(Self.exitLine(session)))
        #expect(session.commands().last == "quit")
    }

    @Test func interruptQuitsCleanlyAndRestoresTheTerminal() throws {
        let session = try TmuxSession(width: 60, height: 12)
        #expect(session.waitUntil { session.screen().first?.hasPrefix(" Ferry ") == true })
        try session.send("C-c")
        #expect(session.waitUntil { Self.exitLine(session) != nil })
        #expect(Self.isCleanExit(Self.exitLine(session)))
        #expect(session.commands() == ["quit"])
    }
}
