import FerryQueue

extension TaskState {
    /// `init(_:)` is the front end's name for a journal state.
    init(_ state: JournalState) {
        switch state {
        case .queued: self = .queued
        case .running: self = .running
        case .paused: self = .paused
        case .done: self = .done
        case .failed: self = .failed
        case .cancelled: self = .cancelled
        }
    }
}

extension JournalState {
    /// `init(_:)` is the journal's name for a front-end state.
    init(_ state: TaskState) {
        switch state {
        case .queued: self = .queued
        case .running: self = .running
        case .paused: self = .paused
        case .done: self = .done
        case .failed: self = .failed
        case .cancelled: self = .cancelled
        }
    }
}
