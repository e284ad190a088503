import FerryKit

/// Marking started tasks `running`: a task handed to the session stays `queued` in the journal
/// until the session starts its transfer; the next commit of the scheduler then marks it, so the
/// journal's `running` rows are transfers that are live (or finishing), never more than
/// `--max-concurrent` of them.
extension Scheduler {
    /// `transferStarted(_:transfer:)` notes that the session started a task's transfer: its row
    /// is marked `running` by the next commit with room for it (`marksThatFit()`).
    func transferStarted(_ id: TaskID, transfer: TransferTask) {
        guard let entry = running[id], entry.transfer === transfer, !entry.started else { return }
        entry.started = true
        startsToMark.append(id)
    }

    /// `marksThatFit()` takes from `startsToMark`, in the order they started, the tasks to mark
    /// `running` with the next commit: as many as keep the rows this scheduler marked within
    /// the concurrency limit. A finishing file keeps its row `running` until its attempt is
    /// recorded; the transfer that took its slot is marked by that same commit, so a reader of
    /// the journal never sees more rows running than the limit.
    func marksThatFit() -> [TaskID] {
        var room = configuration.maximumConcurrent - markedCount
        guard room > 0, !startsToMark.isEmpty else { return [] }
        var marks: [TaskID] = []
        var taken = 0
        while taken < startsToMark.count, room > 0 {
            let id = startsToMark[taken]
            taken += 1
            // A transfer being stopped is recorded, with its mark, when it ends.
            guard let entry = running[id], entry.started, !entry.marked, entry.intent == nil else { continue }
            marks.append(id)
            room -= 1
        }
        startsToMark.removeSubrange(0..<taken)
        return marks
    }

    /// `recordMarks(_:moved:)` notes which of `marks` the journal moved to `running` (`moved`,
    /// in the same order); the others' rows changed meanwhile (another process paused or removed
    /// them), so their transfers are stopped at once.
    func recordMarks(_ marks: [TaskID], moved: [TaskID]) {
        guard !marks.isEmpty else { return }
        var changed: [TaskID] = []
        var next = 0
        for id in marks {
            if next < moved.count, moved[next] == id {
                next += 1
                running[id]?.marked = true
                markedCount += 1
            } else {
                changed.append(id)
            }
        }
        if !changed.isEmpty {
            reconcile(changed)
        }
    }

    /// `forgetStart(of:)` drops a task whose attempt ended from `startsToMark`: it is recorded,
    /// with its mark, with its outcome.
    func forgetStart(of entry: RunningTask) {
        guard entry.started, !entry.marked, let index = startsToMark.firstIndex(of: entry.record.id) else { return }
        startsToMark.remove(at: index)
    }
}
