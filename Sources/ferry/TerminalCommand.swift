import ArgumentParser

/// `TerminalCommand` is `ferry tui`: the same as `ferry` alone, the terminal UI on the saved queue.
struct TerminalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: "Open the terminal UI on the saved queue (the same as `ferry` alone).",
        discussion: "Press ? inside for the keys. Quitting with q keeps the queue; its transfers continue next time."
    )

    @OptionGroup var options: TerminalOptions

    func run() async throws {
        try await TerminalSession.run(options)
    }
}
