/// `TaskState` is where a task stands in its life; `done` and `cancelled` are terminal.
///
/// The allowed changes are listed in `canTransition(to:)`; the journal refuses any other.
public enum TaskState: String, Sendable, CaseIterable, CustomStringConvertible {
    /// `queued` waits for a free slot.
    case queued
    /// `running` is being transferred by the engine.
    case running
    /// `paused` waits for the user; the scheduler skips it.
    case paused
    /// `done` finished with the complete file at its final name (terminal).
    case done
    /// `failed` gave up after its retries; the user may queue it again.
    case failed
    /// `cancelled` was stopped by the user (terminal).
    case cancelled

    /// `isTerminal` is true for states a task never leaves (`done`, `cancelled`).
    public var isTerminal: Bool {
        self == .done || self == .cancelled
    }

    /// `canTransition(to:)` tells whether a task in this state may move to `next`.
    ///
    /// - queued -> running (scheduled), paused, cancelled
    /// - running -> queued (interrupted or waiting for a retry), paused, done, failed, cancelled
    /// - paused -> queued (resumed), cancelled
    /// - failed -> queued (retried by the user), cancelled
    /// - done, cancelled -> nothing
    ///
    /// Staying in the same state is not a transition and returns `false`.
    public func canTransition(to next: TaskState) -> Bool {
        switch (self, next) {
        case (.queued, .running), (.queued, .paused), (.queued, .cancelled):
            return true
        case (.running, .queued), (.running, .paused), (.running, .done),
             (.running, .failed), (.running, .cancelled):
            return true
        case (.paused, .queued), (.paused, .cancelled):
            return true
        case (.failed, .queued), (.failed, .cancelled):
            return true
        default:
            return false
        }
    }

    /// `description` is the raw value, as stored and shown (`queued`, `running`...).
    public var description: String { rawValue }
}
