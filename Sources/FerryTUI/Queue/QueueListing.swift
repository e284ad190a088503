import FerryKit
import FerryQueue

/// `QueueListing` is the task table's list over the journal: the ids a `TaskQuery` lists, in
/// its order, and the queue's counts per state.
///
/// It is built in one pass over the tasks' summaries (`Journal.forEachSummary(labels:_:)`):
/// each task becomes a small `TaskKey` for the sort, and only the sorted ids are kept (8 bytes
/// per task). Names are made only when the query filters or orders by name.
struct QueueListing {
    /// `query` is the query listed.
    let query: TaskQuery
    /// `revision` is the journal's revision read before the pass.
    let revision: Int64
    /// `order` are the listed ids, in the query's order.
    private(set) var order: [TaskRow.ID]
    /// `counts` are the queue's tasks per state shown (no speeds).
    private(set) var counts: TaskStats
    /// `waiting` are the tasks the journal says run but whose transfer has not started (the
    /// scheduler hands tasks over ahead of need): they are shown, and counted, as queued.
    private(set) var waiting: Set<TaskRow.ID>
    /// `running` are the tasks counted as running (at most the engine's limits).
    private(set) var running: Set<TaskRow.ID>

    /// `init(journal:query:started:live:)` reads the listing. `started` are the tasks whose
    /// transfer runs in this process, `nil` when nothing transfers here (journal states are
    /// shown as they are); `live` is their progress, which the progress and speed orders use.
    init(
        journal: Journal, query: TaskQuery, started: Set<TaskRow.ID>?, live: [TaskRow.ID: TransferProgress]
    ) throws(QueueError) {
        self.query = query
        revision = try journal.revision()
        var counts = TaskStats()
        var waiting: Set<TaskRow.ID> = []
        var running: Set<TaskRow.ID> = []
        var keys: [TaskKey] = []
        let filter = TaskFilter(query.filter)
        let keepsName = query.sortOrder == .name
        try journal.forEachSummary(labels: query.needsNames) { summary in
            let id = summary.id.rawValue
            let kind: TaskKind = summary.kind == .upload ? .upload : .download
            let state = Self.shownState(summary.state, of: id, started: started)
            if state == .queued, summary.state == .running { waiting.insert(id) }
            counts.add(state, kind: kind)
            if state == .running { running.insert(id) }
            var name = ""
            if let label = summary.label {
                name = TaskRow.name(kind: summary.kind, label: label).lowercased()
                if !filter.matches(name: name, state: state, url: label.firstURL?.string) { return }
            } else if !filter.matches(name: "", state: state, url: nil) {
                return
            }
            let progress = state == .running ? live[id] : nil
            keys.append(TaskKey(
                id: id,
                priority: summary.priority,
                position: Int(clamping: summary.position),
                state: state,
                name: keepsName ? name : "",
                fraction: progress.map(Self.fraction) ?? Self.fraction(summary),
                speed: progress.map { Int64($0.bytesPerSecond.rounded()) } ?? 0))
        }
        order = query.sortOrder.sorted(keys)
        self.counts = counts
        self.waiting = waiting
        self.running = running
    }

    /// `shownState(_:of:started:)` is the state shown for a task the journal says is in `state`:
    /// a running task whose transfer has not started (`started` lacks it) shows queued; with
    /// `started` `nil` (nothing transfers in this process) the journal's state as it is.
    static func shownState(_ state: TaskState, of id: TaskRow.ID, started: Set<TaskRow.ID>?) -> TaskState {
        guard state == .running, let started, !started.contains(id) else { return state }
        return .queued
    }

    /// `index(of:)` is the place of a task in the list, `nil` when it is not listed.
    func index(of id: TaskRow.ID) -> Int? {
        order.firstIndex(of: id)
    }

    /// `started(_:)` notes that a waiting task's transfer started: it now counts as running.
    mutating func started(_ id: TaskRow.ID) {
        guard waiting.remove(id) != nil else { return }
        counts.move(from: .queued, to: .running)
        running.insert(id)
    }

    /// `ended(_:in:)` notes that a running task's transfer ended in `state` (as the journal
    /// now says): it no longer counts as running. The next pass counts everything again; this
    /// keeps the header within the limits meanwhile.
    mutating func ended(_ id: TaskRow.ID, in state: TaskState) {
        guard state != .running, running.remove(id) != nil else { return }
        counts.move(from: .running, to: state)
    }

    /// `drop(_:)` removes tasks found gone since the pass from the list.
    mutating func drop(_ ids: Set<TaskRow.ID>) {
        order.removeAll { ids.contains($0) }
    }

    /// The completed share the table shows for a task at rest (as `TaskRow.fraction`).
    private static func fraction(_ summary: TaskSummary) -> Double? {
        guard let total = summary.totalLength else { return summary.state == .done ? 1 : nil }
        guard total > 0 else { return summary.state == .done ? 1 : 0 }
        let done = summary.state == .done ? total : summary.durableOffset
        return min(1, max(0, Double(done) / Double(total)))
    }

    /// The completed share of a running transfer.
    private static func fraction(_ progress: TransferProgress) -> Double? {
        guard let total = progress.expectedBytes else { return nil }
        guard total > 0 else { return 0 }
        return min(1, max(0, Double(progress.completedBytes) / Double(total)))
    }
}
