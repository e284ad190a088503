import FerryQueue

/// The terminal UI shows the queue's own `TaskState` (one description of a task's state for
/// the journal, the engine, RPC and the UI); these are what the UI asks of it.
extension TaskState {
    /// `label` is the lower-case word used in the header and the detail pane.
    public var label: String { rawValue }

    /// `canPause` is true for states that the pause key stops.
    public var canPause: Bool { self == .queued || self == .running }

    /// `canRetry` is true for states that the retry key restarts: failed only (a cancelled
    /// task never runs again, as the queue's states say).
    public var canRetry: Bool { self == .failed }

    /// `index` is the state's place in `allCases`, for tables counted by state.
    var index: Int { TaskState.allCases.firstIndex(of: self) ?? 0 }
}
