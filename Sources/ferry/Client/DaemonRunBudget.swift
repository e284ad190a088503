import FerryRPC

/// `DaemonRunBudget` makes a `get`'s `--overall-limit` and `--overall-upload-limit` the
/// budgets of the daemon running the queue for that run only, as they are for a run of its
/// own (curl's model): the daemon's budgets before are read first, set back when the run ends
/// (done, failed or interrupted), and the run's first line says that the budget is shared
/// with whatever else the daemon runs meanwhile. A `get` killed with SIGKILL cannot set them
/// back; `ferry limit` shows and changes them then.
struct DaemonRunBudget {
    /// The daemon's options as they were, for the keys this run changed; empty when none.
    private let previous: [String: JSONValue]
    private let daemon: DaemonClient?

    /// `apply(_:on:)` puts the budgets given in force on `daemon`; a budget not given is left
    /// as the daemon has it. Throws `DaemonClient.Absent` when the daemon is gone.
    static func apply(_ bandwidth: BandwidthOptions, on daemon: DaemonClient) async throws -> DaemonRunBudget {
        let wanted = bandwidth.rpcOptions
        guard !wanted.isEmpty else { return DaemonRunBudget(previous: [:], daemon: nil) }
        let answer = try await daemon.call("aria2.getGlobalOption")
        var previous: [String: JSONValue] = [:]
        for key in wanted.keys {
            // aria2's answer holds every value as a string; "0" is no limit.
            previous[key] = .string(answer.objectValue?[key]?.stringValue ?? "0")
        }
        _ = try await daemon.call("aria2.changeGlobalOption", [.object(wanted)])
        Console.error("note: the daemon running this queue shares this budget with every task it runs until this get ends; its own returns then")
        return DaemonRunBudget(previous: previous, daemon: daemon)
    }

    /// `restore()` sets the daemon's budgets back to what they were before this run; a daemon
    /// gone meanwhile has nothing to set back.
    func restore() async {
        guard let daemon, !previous.isEmpty else { return }
        _ = try? await daemon.call("aria2.changeGlobalOption", [.object(previous)])
    }
}
