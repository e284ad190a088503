import GRDB

extension Journal {
    /// `updateState(_:to:)` moves a task to `state` if `TaskState.canTransition(to:)` allows it.
    ///
    /// Going `running` sets `startedAt`; reaching `done`, `failed` or `cancelled` sets
    /// `finishedAt`. The check and the change happen in one transaction. Throws
    /// `.journal(.taskNotFound)` or `.journal(.invalidTransition)`.
    public func updateState(_ id: TaskID, to state: TaskState) throws(QueueError) {
        let time = timestamp()
        try write { db in
            guard let current = try String.fetchOne(
                db, sql: "SELECT state FROM task WHERE id = ?", arguments: [id.rawValue]
            ).flatMap(TaskState.init(rawValue:)) else {
                throw QueueError.journal(.taskNotFound(id))
            }
            guard current.canTransition(to: state) else {
                throw QueueError.journal(.invalidTransition(id, from: current, to: state))
            }
            let stamp: String
            switch state {
            case .running: stamp = ", started_at = :time"
            case .done, .failed, .cancelled: stamp = ", finished_at = :time"
            case .queued, .paused: stamp = ""
            }
            try db.execute(
                sql: "UPDATE task SET state = :state, updated_at = :time\(stamp) WHERE id = :id",
                arguments: ["state": state.rawValue, "time": time, "id": id.rawValue])
            try JournalMeta.bumpRevision(db)
        }
    }

    /// `requeueInterrupted()` puts every `running` task back to `queued` and returns how
    /// many there were; call it at startup, holding the engine lock, to recover from a crash.
    @discardableResult
    public func requeueInterrupted() throws(QueueError) -> Int {
        let time = timestamp()
        return try write { db in
            try db.execute(
                sql: "UPDATE task SET state = 'queued', updated_at = ? WHERE state = 'running'",
                arguments: [time])
            let count = db.changesCount
            if count > 0 {
                try JournalMeta.bumpRevision(db)
            }
            return count
        }
    }

    /// `remove(_:)` deletes tasks with their URLs, headers, form and segments, and returns
    /// how many existed. Files on disk are not touched.
    @discardableResult
    public func remove(_ ids: [TaskID]) throws(QueueError) -> Int {
        guard !ids.isEmpty else { return 0 }
        return try write { db in
            var removed = 0
            let statement = try db.cachedStatement(sql: "DELETE FROM task WHERE id = ?")
            for id in Set(ids) {
                try statement.execute(arguments: [id.rawValue])
                removed += db.changesCount
            }
            if removed > 0 {
                try JournalMeta.bumpRevision(db)
            }
            return removed
        }
    }

    /// `removeAll(in:)` removes every task in `states` with one statement (their files are
    /// not touched) and returns how many went; the revision moves when some did.
    public func removeAll(in states: Set<TaskState>) throws(QueueError) -> Int {
        guard !states.isEmpty else { return 0 }
        let (filter, arguments) = Journal.stateFilter(states)
        return try write { db in
            try db.execute(sql: "DELETE FROM task \(filter)", arguments: arguments)
            let count = db.changesCount
            if count > 0 {
                try JournalMeta.bumpRevision(db)
            }
            return count
        }
    }
}
