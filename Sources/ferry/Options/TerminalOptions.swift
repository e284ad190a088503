import ArgumentParser
import FerryQueue

/// `TerminalOptions` are the options of the terminal UI, shared by `ferry` alone and `ferry tui`.
struct TerminalOptions: ParsableArguments {
    @Option(name: .customLong("state-dir"), help: "The queue's state directory (default: $FERRY_STATE_DIR, else $XDG_STATE_HOME/ferry).")
    var stateDirectory: String?

    @Option(name: [.customShort("d"), .customLong("dir")], help: "The directory the add dialog offers (default: $XDG_DOWNLOAD_DIR, else ~/Downloads, else the current directory).")
    var directory: String?

    @OptionGroup var limits: EngineLimits

    @OptionGroup var hooks: HookOptions

    @OptionGroup(title: "TLS rules per host (for the daemon started for the window)") var trustRules: TrustRuleOptions

    @Flag(name: .customLong("bell"), help: "Ring the terminal's bell when the queue empties (the last running or queued task ended).")
    var bell = false

    @Option(name: .customLong("render-benchmark"), help: .hidden)
    var renderBenchmarkFrames: Int?
}
