import FerryQueue
import Synchronization

/// `StartedTransfers` keeps which tasks have a transfer attempt between its `started` and
/// `ended` events, so that aria2's notification of an end goes out only for an attempt that
/// started: a task the engine held ahead of need and gives back (paused or removed before it
/// started) ends without having started, and `RPCEngine` notifies it itself, as a waiting
/// task, once.
///
/// Thread rules: `admits(_:)` is called on the publishing thread, in the order of the events.
final class StartedTransfers: Sendable {
    private let ids = Mutex<Set<TaskID>>([])

    /// `admits(_:)` notes `event` and tells whether its notification goes out: every event but
    /// the `ended` of an attempt that never started.
    func admits(_ event: SchedulerEvent) -> Bool {
        switch event {
        case .started(let id):
            ids.withLock { _ = $0.insert(id) }
            return true
        case .ended(let id, _, _, _):
            return ids.withLock { $0.remove(id) } != nil
        case .progress, .transferred, .journalChanged, .willRetry, .note:
            return true
        }
    }
}
