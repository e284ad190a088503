import FerryQueue

extension RPCEngine {
    /// `pause(_:)` pauses the queued and running tasks of `tasks` and returns each task paused
    /// with the state it left. See `move(_:from:to:notifying:)`.
    func pause(_ tasks: TaskSet) async throws(RPCError) -> [TaskID: TaskState] {
        try await move(tasks, from: [.queued, .running], to: .paused, notifying: "aria2.onDownloadPause")
    }

    /// `cancel(_:)` makes the unfinished and failed tasks of `tasks` `cancelled` (aria2's
    /// `remove`) and returns each with the state it left.
    func cancel(_ tasks: TaskSet) async throws(RPCError) -> [TaskID: TaskState] {
        try await move(tasks, from: [.queued, .paused, .failed, .running], to: .cancelled, notifying: "aria2.onDownloadStop")
    }

    /// `move(_:from:to:notifying:)` moves tasks through the journal, in one transaction that
    /// tells which ones had a transfer in flight, then has the scheduler stop those at once.
    /// A stopped transfer's notification comes from the scheduler's `ended` event; a task that
    /// was waiting (queued or paused, no transfer started: one the engine holds ahead of need
    /// too) gets `name` here, as aria2 notifies waiting tasks too. A transfer the session
    /// started is live before its row reads `running` (the scheduler's next commit marks it):
    /// its own `ended` notifies it.
    func move(_ tasks: TaskSet, from: Set<TaskState>, to state: TaskState, notifying name: String) async throws(RPCError) -> [TaskID: TaskState] {
        let moved = try journalCall { () throws(QueueError) in try journal.moveStates(tasks.named, from: from, to: state) }
        guard !moved.isEmpty else { return moved }
        let transferring = moved.keys.filter { live.progress(of: $0) != nil }
        await runner.journalDidChange()
        for (id, previous) in moved.sorted(by: { $0.key.rawValue < $1.key.rawValue })
        where (previous == .queued || previous == .paused) && !transferring.contains(id) {
            notifications.publish(Aria2Notification.message(name, id))
        }
        return moved
    }

    /// `ids(_:in:)` are the tasks of `tasks` in one of `states`: the named ones that are, or
    /// every one for `all`.
    func ids(_ tasks: TaskSet, in states: Set<TaskState>) throws(RPCError) -> [TaskID] {
        try journalCall { () throws(QueueError) in
            switch tasks {
            case .ids(let named):
                let current = try journal.states(of: Set(named))
                return named.filter { current[$0].map(states.contains) ?? false }
            case .all:
                var ids: [TaskID] = []
                try journal.forEachSummary(labels: false) { summary in
                    if states.contains(summary.state) { ids.append(summary.id) }
                }
                return ids
            }
        }
    }
}
