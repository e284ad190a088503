import GRDB

extension Journal {
    /// `moveStates(_:from:to:)` moves the given tasks (every task when `ids` is `nil`) that are
    /// in one of `from` to `state`, where the state table allows it, and returns each task
    /// moved with the state it left.
    ///
    /// The states are read and changed in one transaction, so no other writer (a scheduler
    /// marking a task running) comes between: a daemon can tell a task that had a transfer
    /// in flight (it left `running`) from one that had none.
    public func moveStates(_ ids: [TaskID]?, from: Set<TaskState>, to state: TaskState) throws(QueueError) -> [TaskID: TaskState] {
        let allowed = from.filter { $0.canTransition(to: state) }
        guard !allowed.isEmpty, ids.map({ !$0.isEmpty }) ?? true else { return [:] }
        let time = timestamp()
        let (filter, filterArguments) = Journal.stateFilter(allowed)
        let stamp: String
        switch state {
        case .running: stamp = ", started_at = ?"
        case .done, .failed, .cancelled: stamp = ", finished_at = ?"
        case .queued, .paused: stamp = ""
        }
        let stampArguments: StatementArguments = stamp.isEmpty ? [] : [time]
        return try write { db in
            var left: [TaskID: TaskState] = [:]
            func select(_ sql: String, _ arguments: StatementArguments) throws {
                for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
                    if let previous = TaskState(rawValue: row["state"]) { left[TaskID(row["id"] as Int64)] = previous }
                }
            }
            if let ids {
                try TaskLoader.forEachChunk(of: Array(Set(ids.map(\.rawValue)))) { marks, arguments, _ in
                    try select("SELECT id, state FROM task \(filter) AND id IN (\(marks))", filterArguments + arguments)
                }
            } else {
                try select("SELECT id, state FROM task \(filter)", filterArguments)
            }
            try TaskLoader.forEachChunk(of: left.keys.map(\.rawValue)) { marks, arguments, _ in
                try db.execute(sql: "UPDATE task SET state = ?, updated_at = ?\(stamp) WHERE id IN (\(marks))",
                               arguments: [state.rawValue, time] + stampArguments + arguments)
            }
            if !left.isEmpty {
                try JournalMeta.bumpRevision(db)
            }
            return left
        }
    }
}
