import ArgumentParser

/// `TerminalCommand` is `ferry tui`: the same as `ferry` alone, the terminal UI on the saved queue.
struct TerminalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: "Open the terminal UI on the saved queue (the same as `ferry` alone).",
        // Written out so that it wraps at 80 columns, as the rest of the help does.
        usage: """
            ferry tui [--state-dir <state-dir>] [--dir <dir>] [--max-concurrent <N>]
                      [--max-per-host <N>] [--overall-limit <RATE>]
                      [--overall-upload-limit <RATE>] [--on-complete <CMD>]
                      [--on-error <CMD>] [--trust <RULE> ...] [--bell]
            """,
        discussion: "Press ? inside for the keys. Quitting with q keeps the queue; its transfers continue next time."
    )

    @OptionGroup var options: TerminalOptions

    func run() async throws {
        try await TerminalSession.run(options)
    }
}
