import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `TmuxTerminal` runs one command in a private tmux server (its socket inside a temporary
/// directory) so that a test can type keys, read the screen, resize the window and, once
/// the command has ended, read its exit status and the terminal modes it left behind.
///
/// When the command ends, the shell prints `EXIT=<status> MODES=<echo|-echo> <icanon|-icanon>`
/// on the screen and waits; `deinit` kills the server. Methods are for one thread.
public final class TmuxTerminal {
    /// `isAvailable` is true when tmux is installed.
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// `executable` is the tmux binary.
    public static let executable = "/usr/bin/tmux"

    /// `directory` holds the socket and the client's output; removed on deinit.
    public let directory: TemporaryDirectory

    /// `init(command:environment:width:height:)` starts `command` (an argument vector) in a
    /// `width` x `height` window, with `environment` added to the inherited environment.
    public init(command: [String], environment: [String: String] = [:], width: Int, height: Int) throws {
        directory = try TemporaryDirectory(prefix: "ferry-tmux")
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote($0.value))" }
        // `trap : INT` keeps this shell alive through Ctrl-C while the command, after exec,
        // gets the default disposition.
        let script = """
            trap : INT; \(assignments.joined(separator: " ")) \(command.map(Self.quote).joined(separator: " ")) 2>\(Self.quote(directory.file("stderr").path)); \
            status=$?; modes=$(stty -a | tr ' ;' '\\n\\n' | grep -x -e '-\\{0,1\\}echo' -e '-\\{0,1\\}icanon' | tr '\\n' ' '); \
            echo "EXIT=$status MODES=$modes"; sleep 600
            """
        try tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", "sh", "-c", script], captureOutput: false)
    }

    deinit {
        _ = try? tmux(["kill-server"])
        directory.remove()
    }

    /// `screen()` is the visible screen, one string per line, trailing blanks trimmed by tmux.
    public func screen() -> [String] {
        ((try? tmux(["capture-pane", "-p"])) ?? "").components(separatedBy: "\n")
    }

    /// `standardError()` is what the command wrote to its standard error.
    public func standardError() -> String {
        (try? String(contentsOfFile: directory.file("stderr").path, encoding: .utf8)) ?? ""
    }

    /// `send(_:)` sends tmux key names (`Down`, `Space`, `Enter`, `C-c`, `q`).
    public func send(_ keys: String...) throws { try tmux(["send-keys"] + keys) }

    /// `type(_:)` types text literally.
    public func type(_ text: String) throws { try tmux(["send-keys", "-l", text]) }

    /// `resize(width:height:)` resizes the window; the command gets SIGWINCH.
    public func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    /// `exitLine()` is the `EXIT=... MODES=...` line once the command has ended, `nil` before.
    public func exitLine() -> String? {
        screen().first { $0.hasPrefix("EXIT=") }
    }

    /// `exitedCleanly(status:)` is true when the command exited with `status` and left echo
    /// and canonical input on (stty shows `-echo`/`-icanon` when they are off).
    public func exitedCleanly(status: Int32 = 0) -> Bool {
        guard let line = exitLine(), let modes = line.split(separator: "MODES=").last else { return false }
        return line.hasPrefix("EXIT=\(status) ") && Set(modes.split(separator: " ").map(String.init)) == ["echo", "icanon"]
    }

    /// `waitUntil(seconds:_:)` re-reads until `condition` holds or `seconds` pass (10 by
    /// default), checking every 20 ms; returns whether it held.
    @discardableResult
    public func waitUntil(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// `tmux(_:captureOutput:)` runs a tmux client against this terminal's private server.
    ///
    /// The client is spawned directly because the server that `new-session` forks inherits
    /// its descriptors and signal mask: output goes to a file (a pipe would never see EOF)
    /// and the mask is cleared (the test runner blocks signals the command must receive).
    @discardableResult
    public func tmux(_ arguments: [String], captureOutput: Bool = true) throws -> String {
        let outputPath = directory.file("tmux-output").path
        let argv = [Self.executable, "-S", directory.file("socket").path, "-f", "/dev/null"] + arguments
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
        let status = posix_spawn(&pid, Self.executable, &actions, &attributes, cArguments, environ)
        guard status == 0 else { throw TestSupportError("posix_spawn tmux: \(String(cString: strerror(status)))") }
        var exitStatus: Int32 = 0
        while waitpid(pid, &exitStatus, 0) < 0, errno == EINTR {}
        return captureOutput ? ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "") : ""
    }

    /// `quote(_:)` quotes `text` for the POSIX shell.
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
