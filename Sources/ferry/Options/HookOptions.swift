import ArgumentParser

/// `HookOptions` are the commands run when a download ends, as aria2's
/// `on-download-complete` and `on-download-error`: on every command that runs transfers
/// (`get`, `resume`, `daemon`, the terminal UI's daemon).
struct HookOptions: ParsableArguments {
    @Option(name: .customLong("on-complete"), help: ArgumentHelp("Run CMD when a task is done, with its id, the file count (1) and the file's path as arguments (as aria2's on-download-complete).", valueName: "CMD"))
    var onComplete: String?

    @Option(name: .customLong("on-error"), help: ArgumentHelp("Run CMD when a task fails for good, with its id, 1 and the path it was to be saved at (empty when unknown).", valueName: "CMD"))
    var onError: String?

    /// `arguments` are the options again, for a daemon started on the user's behalf.
    var arguments: [String] {
        (onComplete.map { ["--on-complete", $0] } ?? []) + (onError.map { ["--on-error", $0] } ?? [])
    }
}
