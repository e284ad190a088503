import FerryTestSupport
import Foundation
import Testing

/// The terminal UI after its daemon was killed: quitting does not claim that transfers go on.
@Suite(.enabled(if: TmuxTerminal.isAvailable))
struct TerminalDaemonGoneTests {
    /// `daemonProcess(stateDirectory:)` is the pid of the daemon the UI started for
    /// `stateDirectory` (its command line names that directory), `nil` while there is none.
    private func daemonProcess(stateDirectory: String) -> pid_t? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = pid_t(entry),
                  let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if arguments.contains("daemon"), arguments.contains(stateDirectory) { return pid }
        }
        return nil
    }

    @Test func quittingAfterTheDaemonWasKilledSaysNothingRuns() throws {
        // Given the UI running a slow download in the daemon it started
        let www = try TemporaryDirectory(worldReadable: true)
        let work = try TemporaryDirectory(prefix: "ferry-tui-gone")
        defer { www.remove(); work.remove() }
        try Pattern.writeFile(at: www.file("slow.bin"), count: 4 << 20, seed: 5)
        let nginx = try NginxServer.start(root: www.url, limitRate: "128k")
        defer { nginx.stop() }
        let state = work.file("state").path
        let downloads = work.file("downloads").path
        try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let added = try runFerry(["add", "--state-dir", state, "-d", downloads, nginx.url("/slow.bin").absoluteString])
        try #require(added.exitStatus == 0, "\(added.stderr)")
        let terminal = try TmuxTerminal(command: [try ferryExecutableURL().path, "--state-dir", state, "--dir", downloads],
                                        environment: ["NO_COLOR": "1"], width: 100, height: 20)
        #expect(terminal.waitUntil(seconds: 30) { terminal.screen().joined().contains("1 running") }, "\(terminal.screen())")
        let daemon = try #require(daemonProcess(stateDirectory: state))

        // When the daemon is killed and the user quits
        kill(daemon, SIGKILL)
        #expect(terminal.waitUntil(seconds: 30) { terminal.screen().joined().contains("the daemon stopped") }, "\(terminal.screen())")
        try terminal.send("q")
        #expect(terminal.waitUntil(seconds: 30) { terminal.exitLine() != nil }, "\(terminal.screen())")

        // Then the UI says the daemon is gone and nothing runs, not that transfers go on
        let said = terminal.standardError()
        #expect(terminal.exitLine()?.hasPrefix("EXIT=0") == true, "\(terminal.screen())")
        #expect(said.contains("the daemon is gone: no transfer is running"), "\(said)")
        #expect(!said.contains("go on"), "\(said)")
    }
}
