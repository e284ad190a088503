import GRDB

extension Journal {
    /// `markRunning(_:fileNames:)` moves the given `queued` tasks to `running` in one
    /// transaction and returns those that moved, in the given order.
    ///
    /// `fileNames`, when given, holds a file name per task (or `nil`), in the same order: it
    /// is recorded as the task's `fileName` unless the task has one already (a task keeps the
    /// name it was first given). Empty by default.
    ///
    /// A task that is no longer `queued` (paused or removed by another process since it was
    /// read) is left alone and not returned. One scheduling round costs one commit.
    public func markRunning(_ ids: [TaskID], fileNames: [String?] = []) throws(QueueError) -> [TaskID] {
        guard !ids.isEmpty else { return [] }
        let time = timestamp()
        return try schedulingWrite { db in
            let moved = try Journal.markRunning(ids, fileNames: fileNames, time: time, in: db)
            if !moved.isEmpty {
                try JournalMeta.bumpRevision(db)
            }
            return moved
        }
    }

    /// `markRunning(_:fileNames:time:in:)` is `markRunning(_:fileNames:)`'s work inside a transaction.
    private static func markRunning(_ ids: [TaskID], fileNames: [String?], time: Int64, in db: Database) throws -> [TaskID] {
        try updateQueued(ids, fileNames: fileNames, time: time, in: db, sql: """
            UPDATE task SET state = 'running', started_at = ?1, updated_at = ?1, file_name = COALESCE(file_name, ?3)
            WHERE id = ?2 AND state = 'queued'
            """)
    }

    /// `updateQueued(_:fileNames:time:in:sql:)` runs `sql` (arguments: time, id, file name) for
    /// each task, in order, and returns those it changed (those still `queued`).
    private static func updateQueued(_ ids: [TaskID], fileNames: [String?], time: Int64, in db: Database, sql: String) throws -> [TaskID] {
        guard !ids.isEmpty else { return [] }
        let update = try RawUpdate(db, sql: sql)
        var moved: [TaskID] = []
        for (index, id) in ids.enumerated() {
            update.bind(1, time)
            update.bind(2, id.rawValue)
            update.bind(3, index < fileNames.count ? fileNames[index] : nil)
            try update.run()
            if db.changesCount == 1 { moved.append(id) }
        }
        return moved
    }

    /// `identity()` is a random positive number that tells this journal from any other (the
    /// value of the `CommitMark`s of its downloads), made on first use and kept from then on.
    public func identity() throws(QueueError) -> Int64 {
        try write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO journal_meta (key, value) VALUES ('identity', (random() & 9223372036854775807) | 1)")
            return try JournalMeta.value(db, .identity)
        }
    }

    /// `recordRound(started:outcomes:handing:fileNames:)` is one scheduling commit: it moves
    /// the tasks whose transfers `started` from `queued` to `running`, then records the
    /// `outcomes` (as `recordOutcomes(_:)`), then reserves for each task `handing` to the
    /// engine its file name and start time without changing its state (`queued`, held by
    /// the engine until its transfer starts), all in one transaction.
    ///
    /// `fileNames` holds a name per task of `handing` (or `nil`), in the same order, recorded
    /// as the task's `fileName` unless it has one already. A task of `started` or `handing`
    /// that is no longer `queued` (another process paused or removed it) is left alone and
    /// not returned; a task both started and ended here moves to `running` before its outcome.
    /// Returns the tasks that went `running`, the states as `recordOutcomes(_:)` does, and the
    /// tasks handed over, in the given orders.
    public func recordRound(
        started: [TaskID], outcomes: [AttemptOutcome], handing: [TaskID], fileNames: [String?] = []
    ) throws(QueueError) -> (started: [TaskID], states: [TaskState?], handed: [TaskID]) {
        guard !started.isEmpty || !outcomes.isEmpty || !handing.isEmpty else { return ([], [], []) }
        let time = timestamp()
        return try schedulingWrite { db in
            let running = try Journal.markRunning(started, fileNames: [], time: time, in: db)
            let states = try Journal.recordOutcomes(outcomes, time: time, in: db)
            let handed = try Journal.handOver(handing, fileNames: fileNames, time: time, in: db)
            if !running.isEmpty || !outcomes.isEmpty || !handed.isEmpty {
                try JournalMeta.bumpRevision(db)
            }
            return (running, states, handed)
        }
    }

    /// `handOver(_:fileNames:time:in:)` stamps `started_at` and records the file names of the
    /// given tasks still `queued`, leaving their state, and returns those, in order.
    private static func handOver(_ ids: [TaskID], fileNames: [String?], time: Int64, in db: Database) throws -> [TaskID] {
        try updateQueued(ids, fileNames: fileNames, time: time, in: db, sql: """
            UPDATE task SET started_at = ?1, updated_at = ?1, file_name = COALESCE(file_name, ?3)
            WHERE id = ?2 AND state = 'queued'
            """)
    }

    /// `recordOutcome(_:state:finalPath:error:)` stores the end of one transfer attempt in one
    /// transaction: one more attempt, its (masked) error or `nil`, the final path when given,
    /// and the move to `state` when the state table allows it.
    ///
    /// Returns the task's state afterwards: `state`, or the state it already had when the move
    /// was not allowed (another process paused it meanwhile), or `nil` when the task was removed.
    @discardableResult
    public func recordOutcome(_ id: TaskID, state: TaskState, finalPath: String?, error message: String?) throws(QueueError) -> TaskState? {
        try recordOutcomes([AttemptOutcome(id: id, state: state, finalPath: finalPath, message: message)])[0]
    }

    /// `recordOutcomes(_:)` stores the ends of several attempts in one transaction, each as
    /// `recordOutcome(_:state:finalPath:error:)` does, and returns each task's state afterwards
    /// in the same order (`nil` for a removed task).
    public func recordOutcomes(_ outcomes: [AttemptOutcome]) throws(QueueError) -> [TaskState?] {
        guard !outcomes.isEmpty else { return [] }
        let time = timestamp()
        return try schedulingWrite { db in
            let states = try Journal.recordOutcomes(outcomes, time: time, in: db)
            try JournalMeta.bumpRevision(db)
            return states
        }
    }

    /// `recordOutcomes(_:time:in:)` is `recordOutcomes(_:)`'s work inside a transaction. Each
    /// outcome is first an `UPDATE` that moves the task only from a state allowed to move to
    /// the outcome's (`outcomeMove(to:)`): when it changed the row, the state afterwards is
    /// that one. Only when it did not (the task was paused or removed meanwhile, or the move
    /// is not allowed) does an `UPDATE ... RETURNING` record the attempt and read the state
    /// (`outcomeUpdate(to:)`): SQLite buffers the rows of a `RETURNING` in a temporary table,
    /// which made that form cost several times the update itself.
    private static func recordOutcomes(_ outcomes: [AttemptOutcome], time: Int64, in db: Database) throws -> [TaskState?] {
        var states: [TaskState?] = []
        states.reserveCapacity(outcomes.count)
        // Each statement is looked up once per call: GRDB's cache hashes the whole SQL text.
        var moves: [TaskState: RawUpdate] = [:]
        for outcome in outcomes {
            if let sql = outcomeMoves[outcome.state] {
                let move = try moves[outcome.state] ?? RawUpdate(db, sql: sql)
                moves[outcome.state] = move
                bindOutcome(outcome, time: time, to: move)
                try move.run()
                if db.changesCount == 1 {
                    states.append(outcome.state)
                    continue
                }
            }
            let update = try RawUpdate(db, sql: outcomeUpdates[outcome.state] ?? outcomeUpdate(to: outcome.state))
            bindOutcome(outcome, time: time, to: update)
            states.append(try update.run().flatMap(TaskState.init(rawValue:)))
        }
        return states
    }

    /// `bindOutcome(_:time:to:)` binds the arguments of `outcomeMove(to:)` and `outcomeUpdate(to:)`.
    private static func bindOutcome(_ outcome: AttemptOutcome, time: Int64, to update: RawUpdate) {
        update.bind(1, outcome.message)
        update.bind(2, outcome.finalPath)
        update.bind(3, outcome.reply)
        update.bind(4, outcome.length)
        update.bind(5, time)
        update.bind(6, outcome.id.rawValue)
        update.bind(7, outcome.savedFile?.modifiedNanoseconds)
        update.bind(8, outcome.savedFile?.inode)
    }

    /// `outcomeUpdates` is `outcomeUpdate(to:)` for every state, made once; `outcomeMoves`
    /// is `outcomeMove(to:)` for every state that can be reached (no entry: no move first).
    private static let outcomeUpdates = Dictionary(uniqueKeysWithValues: TaskState.allCases.map { ($0, outcomeUpdate(to: $0)) })
    private static let outcomeMoves = Dictionary(uniqueKeysWithValues: TaskState.allCases.compactMap { state in
        outcomeMove(to: state).map { (state, $0) }
    })

    /// `allowedSources(of:)` is the SQL condition on `state` that allows a move to `state`
    /// (`TaskState.canTransition(to:)`), `nil` when nothing may move there. State names are
    /// literals, never user input.
    private static func allowedSources(of state: TaskState) -> String? {
        let sources = TaskState.allCases.filter { $0.canTransition(to: state) }
        return sources.isEmpty ? nil : sources.map { "state = '\($0.rawValue)'" }.joined(separator: " OR ")
    }

    /// `outcomeColumns` are the columns every recorded attempt sets. Arguments: error, final
    /// path, reply, length, time, (id,) the saved file's modification time and inode.
    private static let outcomeColumns = """
        attempts = attempts + 1, last_error = ?1, final_path = COALESCE(?2, final_path),
            reply = COALESCE(?3, reply), total_length = COALESCE(?4, total_length), updated_at = ?5,
            saved_mtime_ns = COALESCE(?7, saved_mtime_ns), saved_inode = COALESCE(?8, saved_inode)
        """

    /// `outcomeMove(to:)` is the statement that records one attempt and moves its task to
    /// `state`, stamping `finished_at` when it moves to `done`, `failed` or `cancelled`, and
    /// changes nothing unless the task is in a state allowed to move there. Arguments: error,
    /// final path, reply, length, time, id. `nil` when no state may move to `state`.
    static func outcomeMove(to state: TaskState) -> String? {
        guard let moves = allowedSources(of: state) else { return nil }
        let stamp = state == .done || state == .failed || state == .cancelled ? ", finished_at = ?5" : ""
        return """
            UPDATE task SET state = '\(state.rawValue)', \(outcomeColumns)\(stamp)
            WHERE id = ?6 AND (\(moves))
            """
    }

    /// `outcomeUpdate(to:)` is the statement that records one attempt and moves its task to
    /// `state` only from the states allowed to move there (`TaskState.canTransition(to:)`),
    /// stamping `finished_at` when it moves to `done`, `failed` or `cancelled`; it returns the
    /// state afterwards (no row for a removed task). Arguments as `outcomeMove(to:)`'s.
    static func outcomeUpdate(to state: TaskState) -> String {
        let moves = allowedSources(of: state) ?? "0"
        let stamp = state == .done || state == .failed || state == .cancelled
            ? ", finished_at = CASE WHEN \(moves) THEN ?5 ELSE finished_at END" : ""
        return """
            UPDATE task SET state = CASE WHEN \(moves) THEN '\(state.rawValue)' ELSE state END,
                \(outcomeColumns)\(stamp)
            WHERE id = ?6 RETURNING state
            """
    }

    /// `states(of:)` reads the current state of each given task with one query; removed
    /// tasks are absent from the result.
    public func states(of ids: some Collection<TaskID>) throws(QueueError) -> [TaskID: TaskState] {
        guard !ids.isEmpty else { return [:] }
        let values = ids.map(\.rawValue)
        return try read { db in
            var result: [TaskID: TaskState] = [:]
            try TaskLoader.forEachChunk(of: values) { marks, arguments, _ in
                for row in try Row.fetchAll(db, sql: "SELECT id, state FROM task WHERE id IN (\(marks))", arguments: arguments) {
                    if let state = TaskState(rawValue: row["state"]) {
                        result[TaskID(row["id"] as Int64)] = state
                    }
                }
            }
            return result
        }
    }

    /// `updateStates(_:to:)` moves each given task to `state` where the state table allows it,
    /// in one transaction, and returns the tasks that moved; the others are left as they were.
    @discardableResult
    public func updateStates(_ ids: [TaskID], to state: TaskState) throws(QueueError) -> [TaskID] {
        guard !ids.isEmpty else { return [] }
        let allowedFrom = TaskState.allCases.filter { $0.canTransition(to: state) }
        guard !allowedFrom.isEmpty else { return [] }
        let time = timestamp()
        let from = allowedFrom.map { "'\($0.rawValue)'" }.joined(separator: ",")
        let stamp = Journal.stamp(for: state, time: time)
        return try write { db in
            let statement = try db.cachedStatement(sql: """
                UPDATE task SET state = ?, updated_at = ?\(stamp) WHERE id = ? AND state IN (\(from))
                """)
            var moved: [TaskID] = []
            for id in ids {
                try statement.execute(arguments: [state.rawValue, time, id.rawValue])
                if db.changesCount == 1 { moved.append(id) }
            }
            if !moved.isEmpty {
                try JournalMeta.bumpRevision(db)
            }
            return moved
        }
    }

    /// `updateAll(in:to:)` moves every task whose state is in `states` and may move to `state`
    /// there, with one statement, and returns how many moved (`ferry pause --all`).
    @discardableResult
    public func updateAll(in states: Set<TaskState>, to state: TaskState) throws(QueueError) -> Int {
        let from = states.filter { $0.canTransition(to: state) }
        guard !from.isEmpty else { return 0 }
        let time = timestamp()
        let (filter, arguments) = Journal.stateFilter(from)
        let stamp = Journal.stamp(for: state, time: time)
        return try write { db in
            try db.execute(sql: "UPDATE task SET state = ?, updated_at = ?\(stamp) \(filter)",
                           arguments: [state.rawValue, time] + arguments)
            let count = db.changesCount
            if count > 0 {
                try JournalMeta.bumpRevision(db)
            }
            return count
        }
    }

    /// `removeAll()` deletes every task and returns how many there were.
    @discardableResult
    public func removeAll() throws(QueueError) -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM task")
            let count = db.changesCount
            if count > 0 {
                try JournalMeta.bumpRevision(db)
            }
            return count
        }
    }

    /// `forEachTask(in:pageSize:_:)` calls `body` with every task in queue order, reading
    /// `pageSize` tasks at a time, so memory stays flat for any queue length.
    ///
    /// Pages are found by the last (priority, position) seen, not by an offset, so the
    /// millionth task costs the same as the first. Tasks changed meanwhile may be seen in
    /// their old or new place. `states` is `nil` by default (every state).
    public func forEachTask(
        in states: Set<TaskState>? = nil,
        pageSize: Int = 500,
        _ body: (TaskRecord) throws -> Void
    ) throws {
        try forEachPage(in: states, pageSize: pageSize) { page in
            for record in page {
                try body(record)
            }
        }
    }

    /// `forEachPage(in:pageSize:_:)` is `forEachTask(in:pageSize:_:)` a page at a time: each
    /// call of `body` gets the next at most `pageSize` tasks in queue order (a caller that
    /// hands pages to another thread reads the next one meanwhile).
    public func forEachPage(
        in states: Set<TaskState>? = nil,
        pageSize: Int = 500,
        _ body: ([TaskRecord]) throws -> Void
    ) throws {
        let (filter, filterArguments) = Journal.stateFilter(states)
        let size = max(1, pageSize)
        var last: QueuePlace?
        while true {
            let page = try read { db in
                try Journal.page(db, filter: filter, arguments: filterArguments, after: last, limit: size)
            }
            if !page.isEmpty { try body(page) }
            guard page.count == size, let tail = page.last else { return }
            last = QueuePlace(tail)
        }
    }

    /// `stamp(for:time:)` is the timestamp assignment a move to `state` adds (an integer
    /// literal, never user input).
    private static func stamp(for state: TaskState, time: Int64) -> String {
        switch state {
        case .running: return ", started_at = \(time)"
        case .done, .failed, .cancelled: return ", finished_at = \(time)"
        case .queued, .paused: return ""
        }
    }
}
