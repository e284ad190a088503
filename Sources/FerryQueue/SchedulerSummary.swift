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
    /// `exitStatus` is the design's exit status for what happened: 0 when nothing failed,
    /// else 4 for a local file error (disk full), 3 for a checksum mismatch, 1 otherwise.
    public var exitStatus: Int32 = 0

    /// `init()` makes an empty summary.
    public init() {}

    /// `note(failureStatus:)` folds the exit status of one failure into `exitStatus`
    /// (4 wins over 3, which wins over 1).
    mutating func note(failureStatus status: Int32) {
        let rank: [Int32: Int] = [0: 0, 1: 1, 2: 1, 3: 2, 4: 3]
        let candidate: Int32 = status == 2 ? 1 : status
        if rank[candidate, default: 1] > rank[exitStatus, default: 0] {
            exitStatus = candidate
        }
    }
}
