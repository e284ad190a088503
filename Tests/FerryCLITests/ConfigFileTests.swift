import FerryTestSupport
import Foundation
import Testing

/// The configuration file: an aria2.conf as people have it sets every command's defaults, the
/// command line wins, `--no-config` skips it, a bad line stops every command naming the file and
/// line, and `ferry config` shows where each value comes from.
@Suite(.serialized) struct ConfigFileTests {
    private func run(_ arguments: [String], config: TemporaryDirectory, state: URL) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config.path
        environment["FERRY_STATE_DIR"] = state.path
        let child = try ChildProcess.spawn(executable: try ferryExecutableURL().path, arguments: arguments, environment: environment)
        return try #require(child.wait(timeout: .seconds(60)))
    }

    private func writeConfig(_ text: String, in config: TemporaryDirectory) throws {
        try FileManager.default.createDirectory(at: config.file("ferry"), withIntermediateDirectories: true)
        try text.write(to: config.file("ferry/config"), atomically: true, encoding: .utf8)
    }

    @Test func anAria2ConfSetsTheDefaultsAndTheCommandLineWins() throws {
        let server = try FaultServer.start()
        let config = try TemporaryDirectory()
        let out = try TemporaryDirectory()
        let other = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { config.remove(); out.remove(); other.remove(); state.remove() }
        try writeConfig("""
            # aria2 options Ferry has, and some it has not
            dir=\(out.path)
            user-agent=Mozilla/5.0 (config)
            header=X-Team: blue
            file-allocation=none
            split=4
            max-connection-per-server=2
            continue=true
            max-tries=3
            """, in: config)

        let fromConfig = try run(["get", "-o", "echo.json", server.url("/echo").absoluteString], config: config, state: state.url)
        #expect(fromConfig.exitStatus == 0, "\(fromConfig.stderr)")
        let echoed = try String(contentsOf: out.file("echo.json"), encoding: .utf8)
        #expect(echoed.contains("Mozilla/5.0 (config)") && echoed.contains("X-Team"), "\(echoed)")
        #expect(!fromConfig.stderr.contains("file-allocation"), "ignored options are listed by ferry config only: \(fromConfig.stderr)")

        let overridden = try run(["get", "-d", other.path, "-o", "echo.json", "-H", "User-Agent: cli/1", server.url("/echo").absoluteString],
                                 config: config, state: state.url)
        #expect(overridden.exitStatus == 0, "\(overridden.stderr)")
        let second = try String(contentsOf: other.file("echo.json"), encoding: .utf8)
        #expect(second.contains("cli/1") && !second.contains("Mozilla/5.0 (config)"), "the command line wins: \(second)")

        let skipped = try run(["get", "--no-config", "-d", other.path, "-o", "plain.json", server.url("/echo").absoluteString],
                              config: config, state: state.url)
        #expect(skipped.exitStatus == 0, "\(skipped.stderr)")
        #expect(!(try String(contentsOf: other.file("plain.json"), encoding: .utf8)).contains("X-Team"))
    }

    @Test func aBadLineStopsEveryCommandNamingTheFileAndLine() throws {
        let config = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { config.remove(); state.remove() }
        try writeConfig("dir=/tmp\nmax-concurrent-downloads=many\n", in: config)
        let list = try run(["list"], config: config, state: state.url)
        #expect(list.exitStatus == 2, "\(list.stderr)")
        #expect(list.stderr.contains("ferry/config:2: max-concurrent-downloads is a whole number above 0, not many"), "\(list.stderr)")

        try writeConfig("this is not an option line\n", in: config)
        let get = try run(["get", "http://127.0.0.1:9/x"], config: config, state: state.url)
        #expect(get.exitStatus == 2 && get.stderr.contains("ferry/config:1: not a key=value line"), "\(get.stderr)")

        let missing = try run(["--config", config.file("absent").path, "list"], config: config, state: state.url)
        #expect(missing.exitStatus == 2 && missing.stderr.contains("absent: cannot be read"), "\(missing.stderr)")
    }

    @Test func aBadLineLeavesHelpVersionConfigAndStopWorking() throws {
        // Given a configuration file whose second line has a value its option does not take.
        let config = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { config.remove(); state.remove() }
        try writeConfig("dir=/tmp\nmax-concurrent-downloads=many\n", in: config)

        // When help, the version, ferry config and ferry stop run.
        let help = try run(["--help"], config: config, state: state.url)
        let helpGet = try run(["help", "get"], config: config, state: state.url)
        let getHelp = try run(["get", "--help"], config: config, state: state.url)
        let version = try run(["--version"], config: config, state: state.url)
        let shown = try run(["config"], config: config, state: state.url)
        let stop = try run(["stop"], config: config, state: state.url)

        // Then each works as without the file, ferry config names the line first, and ferry
        // stop says no daemon runs (1) rather than stopping on the file (2).
        #expect(help.exitStatus == 0 && help.stdout.contains("SUBCOMMANDS"), "\(help.stderr)")
        #expect(helpGet.exitStatus == 0 && helpGet.stdout.contains("USAGE: ferry get"), "\(helpGet.stderr)")
        #expect(getHelp.exitStatus == 0 && getHelp.stdout.contains("USAGE: ferry get"), "\(getHelp.stderr)")
        #expect(version.exitStatus == 0 && !version.stdout.isEmpty && version.stderr.isEmpty, "\(version.stderr)")
        #expect(shown.exitStatus == 0, "\(shown.stderr)")
        let findings = shown.stdout.split(separator: "\n").dropFirst()
        #expect(findings.first?.hasPrefix("problem: ") == true && findings.first?.contains("ferry/config:2: max-concurrent-downloads") == true,
                "\(shown.stdout)")
        #expect(stop.exitStatus == 1 && stop.stderr.contains("no ferry daemon runs") && !stop.stderr.contains("ferry/config"), "\(stop.stderr)")
    }

    @Test func ferryConfigSaysWhereEachValueComesFrom() throws {
        let config = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { config.remove(); state.remove() }
        try writeConfig("max-concurrent-downloads=3\nhttp-user=alice\nhttp-passwd=hunter22\nconsole-log-level=warn\nsplit=8\n", in: config)

        let shown = try run(["config"], config: config, state: state.url)

        #expect(shown.exitStatus == 0, "\(shown.stderr)")
        let lines = shown.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("max-concurrent-downloads") && $0.contains(" 3 ") && $0.hasSuffix("ferry/config:1") }, "\(shown.stdout)")
        #expect(lines.contains { $0.hasPrefix("max-per-host") && $0.hasSuffix("built in") }, "\(shown.stdout)")
        #expect(lines.contains { $0.hasPrefix("http-passwd") && $0.contains("***") }, "\(shown.stdout)")
        #expect(!shown.stdout.contains("hunter22"))
        #expect(shown.stdout.contains("ignored, Ferry has no such option: console-log-level (line 4)"), "\(shown.stdout)")
        #expect(lines.contains { $0.hasPrefix("split") && $0.contains(" 8 ") && $0.hasSuffix("ferry/config:5") }, "\(shown.stdout)")
    }
}
