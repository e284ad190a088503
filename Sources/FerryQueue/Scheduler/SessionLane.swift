import FerryKit
import Synchronization

/// `SessionLane` is one `SessionManager` the `Scheduler` runs transfers on, with the map
/// from its transfer ids to journal task ids, and an observer that forwards its progress
/// events as the scheduler's (on the engine thread: no task is woken per event).
///
/// Every transfer of a scheduler runs on its one lane (settings that vary per task, such as a
/// speed cap, travel with each request). Thread-safe.
final class SessionLane: Sendable {
    /// `session` runs the transfers.
    let session: SessionManager
    /// `ownsSession` is true when the scheduler made the session and must invalidate it.
    let ownsSession: Bool
    private let taskIDs = Mutex<[Int: TaskID]>([:])
    private let observer = Mutex<Int?>(nil)

    /// `init(session:ownsSession:hub:)` observes the session's events at once, so no
    /// progress of a transfer started afterwards is missed.
    init(session: SessionManager, ownsSession: Bool, hub: SchedulerEventHub) {
        self.session = session
        self.ownsSession = ownsSession
        let token = session.observe { [weak self] event in
            guard case .progress(let transferID, let progress) = event,
                  let id = self?.taskIDs.withLock({ $0[transferID] }) else { return }
            hub.publish(.progress(id, progress))
        }
        observer.withLock { $0 = token }
    }

    /// `register(_:as:)` maps a transfer to its task until `unregister(_:)`.
    func register(_ transfer: TransferTask, as id: TaskID) {
        taskIDs.withLock { $0[transfer.id] = id }
    }

    /// `unregister(_:)` forgets a transfer; its late progress events are dropped.
    func unregister(_ transfer: TransferTask) {
        _ = taskIDs.withLock { $0.removeValue(forKey: transfer.id) }
    }

    /// `close()` stops forwarding and invalidates the session when the lane owns it.
    func close() {
        if let token = observer.withLock({ $0.take() }) {
            session.removeObserver(token)
        }
        if ownsSession {
            session.invalidate()
        }
    }
}
