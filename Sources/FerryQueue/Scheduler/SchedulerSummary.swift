import FerryKit

/// `SchedulerSummary` counts how the transfer attempts of a `Scheduler` ended, for the
/// summary line and exit status of a headless run.
public struct SchedulerSummary: Sendable, Hashable {
    /// `completed` counts tasks that reached `done`.
    public var completed = 0
    /// `failed` counts tasks that reached `failed`.
    public var failed = 0
    /// `paused` counts tasks paused by an error (a full disk), not by the user.
    public var pausedByError = 0
    /// `retried` counts attempts that ended in a retry or a move to the next mirror.
    public var retried = 0
    /// `worstFailure` is the gravest kind of failure that happened (a local file error over
    /// a checksum mismatch over any other); `nil` when nothing failed. The command line turns
    /// it into its exit status.
    public var worstFailure: FailureKind?

    /// `init()` makes an empty summary.
    public init() {}

    /// `note(_:)` folds one failure into `worstFailure`; a task's bad input counts as a
    /// failed transfer (the run's own input was fine).
    public mutating func note(_ failure: FailureKind) {
        let kind: FailureKind = failure == .input ? .transfer : failure
        worstFailure = max(worstFailure ?? kind, kind)
    }
}
