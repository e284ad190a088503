/// `TaskState` is the life-cycle state of a task as the front end shows it.
///
/// `done`, `failed` and `cancelled` are terminal until the user retries the task.
public enum TaskState: Int, Sendable, Hashable, CaseIterable {
    /// `queued`: the task waits for a free transfer slot.
    case queued
    /// `running`: the task is transferring bytes.
    case running
    /// `paused`: the user paused the task; it keeps its partial data.
    case paused
    /// `done`: the task finished successfully.
    case done
    /// The task stopped with an error (see `TaskRow.lastError`).
    case failed
    /// `cancelled`: the user cancelled the task.
    case cancelled

    /// `label` is the lower-case word used in the header and the detail pane.
    public var label: String {
        switch self {
        case .queued: "queued"
        case .running: "running"
        case .paused: "paused"
        case .done: "done"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }

    /// `canPause` is true for states that the pause key stops.
    public var canPause: Bool { self == .queued || self == .running }

    /// `canRetry` is true for states that the retry key restarts: failed only (a cancelled
    /// task never runs again, as the queue's states say).
    public var canRetry: Bool { self == .failed }
}
