import FerryQueue
import Synchronization

/// `QueueDigest` keeps what the status methods would otherwise learn by a pass over the whole
/// queue: how many tasks are in each state (`getGlobalStat`, `tellStopped` from the end) and
/// which tasks are running (`tellActive`), until the journal's revision moves.
///
/// Every change of a task's state, an addition, a removal or a move moves the revision; a
/// progress checkpoint does not. A front end polls these every second while nothing but
/// progress changes, and a pass over 100,000 tasks took 10 ms or more
/// (`Journal.stateSummary()`). Progress itself is never kept here: running tasks are read
/// again by their ids at every call, and their live bytes and speed come from `LiveProgress`.
///
/// The revision is read before the summary, so what is kept is never older than the
/// revision it is kept for; a change made between the two reads only means one more pass
/// next time.
final class QueueDigest: Sendable {
    private struct Entry {
        let revision: Int64
        let summary: Journal.StateSummary
    }

    private let entry = Mutex<Entry?>(nil)
    private let journal: Journal

    /// `init(journal:)` makes an empty digest of `journal`.
    init(journal: Journal) {
        self.journal = journal
    }

    /// `counts()` is the number of tasks in each state (every state is a key).
    func counts() throws(QueueError) -> [TaskState: Int] {
        try summary().counts
    }

    /// `running()` is every running task, in queue order. A task that stopped since the
    /// summary was made is left out, as it would be a moment later.
    func running() throws(QueueError) -> [TaskRecord] {
        try journal.tasks(ids: try summary().running)
            .filter { $0.state == .running }
            .sorted { $0.priority != $1.priority ? $0.priority > $1.priority : $0.position < $1.position }
    }

    private func summary() throws(QueueError) -> Journal.StateSummary {
        let revision = try journal.revision()
        if let kept = entry.withLock({ $0?.revision == revision ? $0?.summary : nil }) { return kept }
        let summary = try journal.stateSummary()
        entry.withLock { entry in
            // An entry of a later revision, kept meanwhile by another call, stays.
            if entry.map({ $0.revision <= revision }) ?? true {
                entry = Entry(revision: revision, summary: summary)
            }
        }
        return summary
    }
}
