import FerryQueue

/// `JournalEdits` makes a `QueueEdit` on a journal: what an engine in the front end's own
/// process does (`SchedulerActivity`, then it tells its scheduler), and what a controller
/// without an engine does (its rows only: nothing transfers).
public enum JournalEdits {
    /// `apply(_:to:)` makes `edit` on `journal` and says what became of it. A retargeted
    /// task that was paused or failed is queued again only when `requeue` is true (an engine
    /// queues it itself, through its scheduler).
    public static func apply(_ edit: QueueEdit, to journal: Journal, requeue: Bool = true) -> QueueEditOutcome {
        do {
            switch edit {
            case .add(let task):
                _ = try journal.insert(task)
                return .done(count: 1)
            case .move(let id, let up):
                _ = try journal.move(id, up ? .up : .down)
                return .done(count: 1)
            case .retarget(let id, let urls):
                guard try journal.retarget(id, to: urls) else { return .refused }
                if requeue, let state = try journal.task(id)?.state, state == .paused || state == .failed {
                    try journal.updateState(id, to: .queued)
                }
                return .done(count: 1)
            case .purge(let states):
                return .done(count: try journal.removeAll(in: states.intersection([.done, .failed, .cancelled])))
            }
        } catch {
            return .failed(error.description)
        }
    }
}
