import FerryTestSupport
import Foundation
import Testing

/// `ferry get` shows one progress line per running file and a total, redrawn in place and
/// fitted to the terminal's width (a 40-column pane is not flooded); piped, it writes plain
/// lines only (no carriage returns, no escape sequences).
@Suite(.serialized) struct GetProgressTests {
    private static let names = ["alpha.bin", "日本語の名前のファイル.iso", "gamma-with-a-very-long-name-indeed.tar.gz"]

    private func serve(_ www: TemporaryDirectory) throws -> NginxServer {
        for (index, name) in Self.names.enumerated() {
            try Pattern.writeFile(at: www.file(name), count: 1_500_000, seed: index + 1)
        }
        return try NginxServer.start(root: www.url, limitRate: "300k")
    }

    private func urls(_ nginx: NginxServer) -> [String] {
        Self.names.map { name in
            nginx.baseURL.appendingPathComponent(name).absoluteString
        }
    }

    @Test func aNarrowTerminalShowsOneLinePerFileRedrawnInPlace() throws {
        try #require(TmuxTerminal.isAvailable, "tmux is not installed")
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        let nginx = try serve(www)
        defer { nginx.stop() }
        let command = ([try ferryExecutableURL().path, "get", "--state-dir", state.path, "-d", out.path] + urls(nginx))
            .map { "'\($0)'" }.joined(separator: " ")
        // stderr on the pane: the progress is drawn only on a terminal.
        let terminal = try TmuxTerminal(command: ["sh", "-c", "clear; exec \(command) 2>&1"], width: 40, height: 14)

        // While the files arrive, the pane holds one line per file and a total, never more.
        var samples = 0
        var most = 0
        _ = terminal.waitUntil(seconds: 30) {
            let screen = terminal.screen()
            let progress = screen.filter { $0.contains("%") || $0.hasPrefix("[") }
            if progress.count >= 2 { samples += 1 }
            most = max(most, progress.count)
            return samples >= 10 || terminal.exitLine() != nil
        }
        #expect(samples >= 3, "the progress was seen \(samples) times: \(terminal.screen())")
        #expect(most <= 4, "\(terminal.screen())")

        // Then the block is gone and three lines say where the files were saved.
        #expect(terminal.waitUntil(seconds: 60) { terminal.exitLine() != nil })
        let screen = terminal.screen().filter { !$0.isEmpty }
        #expect(terminal.exitLine()?.hasPrefix("EXIT=0") == true, "\(screen)")
        #expect(screen.filter { $0.contains("%") }.isEmpty, "\(screen)")
        #expect(screen.joined().components(separatedBy: "saved ").count - 1 == 3, "\(screen)")
        for (index, name) in Self.names.enumerated() {
            #expect(try SHA256Hex.of(file: out.file(name)) == Pattern.sha256Hex(count: 1_500_000, seed: index + 1))
        }
    }

    @Test func pipedTheProgressIsPlainLines() throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        let nginx = try serve(www)
        defer { nginx.stop() }

        let result = try runFerry(["get", "-d", out.path] + urls(nginx), stateDirectory: state.url, timeout: .seconds(60))

        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("\r") && !result.stderr.contains("\u{1B}"), "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 6, "\(result.stderr)")
        #expect(lines.filter { $0.hasPrefix("downloading http://") }.count == 3)
        #expect(lines.filter { $0.hasPrefix("saved \(out.path)/") }.count == 3)
    }
}
