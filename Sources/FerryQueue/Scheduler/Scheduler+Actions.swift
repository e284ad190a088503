import FerryKit

/// The user's actions on tasks: pause, resume, retry and remove.
extension Scheduler {
    /// `interrupt(_:intent:)` cancels a running transfer; `intent` says what its task becomes.
    func interrupt(_ id: TaskID, intent: StopIntent) {
        guard let entry = running[id] else { return }
        if entry.intent == nil {
            entry.intent = intent
        }
        entry.transfer.cancel()
    }

    /// `pause(_:)` pauses tasks (queued, running or waiting for a retry) and returns those
    /// that were paused; a running transfer is stopped.
    @discardableResult
    public func pause(_ ids: [TaskID]) -> [TaskID] {
        noticeReorder()
        let moved = changeStates(ids, to: .paused)
        for id in moved {
            retryTimers.removeValue(forKey: id)?.cancel()
            interrupt(id, intent: .pause)
        }
        return moved
    }

    /// `resume(_:)` queues paused or failed tasks again and returns those that were queued.
    @discardableResult
    public func resume(_ ids: [TaskID]) -> [TaskID] {
        let moved = changeStates(ids, to: .queued)
        for id in moved {
            attempts.forgetRetries(of: id)
        }
        fill()
        return moved
    }

    /// `adopt(_:)` has a scheduler that runs only its command's own tasks run `ids` too (the
    /// downloads of another `ferry get` of the same queue, queued already), from now until
    /// they end, as its own. Returns `false` when this run is ending or over (the caller then
    /// runs them itself once this engine has let the queue go); a scheduler of the whole queue
    /// runs them anyway and returns `true`.
    public func adopt(_ ids: [TaskID]) -> Bool {
        guard case .running = phase else { return false }
        guard let only = configuration.onlyTasks else { return true }
        adopted.formUnion(ids)
        configuration.onlyTasks = only.union(ids)
        runnable = Journal.RunnableFilter(only: configuration.onlyTasks)
        dropUpcoming()
        fill()
        return true
    }

    /// `runOnly(_:)` gives a scheduler that runs only some tasks (`onlyTasks`) the tasks its
    /// command queued before it runs: its own, not adopted ones. False once it runs.
    public func runOnly(_ ids: [TaskID]) -> Bool {
        guard phase == .idle, let only = configuration.onlyTasks else { return false }
        configuration.onlyTasks = only.union(ids)
        runnable = Journal.RunnableFilter(only: configuration.onlyTasks)
        return true
    }

    /// `retry(_:)` queues failed tasks again from their first mirror, and starts tasks
    /// waiting for a retry at once; returns the tasks concerned.
    @discardableResult
    public func retry(_ ids: [TaskID]) -> [TaskID] {
        var moved = changeStates(ids, to: .queued)
        for id in ids where retryTimers[id] != nil {
            retryTimers.removeValue(forKey: id)?.cancel()
            moved.append(id)
        }
        for id in moved {
            attempts.startOver(id)
        }
        fill()
        return moved
    }

    /// `remove(_:deleteFile:)` removes tasks from the journal, stopping their transfers, and
    /// with `deleteFile` also deletes their finished or partial files (a running download's
    /// `.part` once its transfer ended); without, every file is kept. Returns how many tasks
    /// existed.
    @discardableResult
    public func remove(_ ids: [TaskID], deleteFile: Bool) -> Int {
        var records: [TaskRecord] = []
        if deleteFile {
            for id in ids where running[id] == nil {
                if let record = try? journal.task(id) { records.append(record) }
            }
        }
        noticeReorder()
        for id in ids {
            retryTimers.removeValue(forKey: id)?.cancel()
            if deleteFile { running[id]?.deletesPartialFile = true }
            interrupt(id, intent: .removed)
        }
        dropUpcoming()
        let removed: Int
        do {
            removed = try journal.remove(ids)
        } catch {
            lastJournalError = error
            return 0
        }
        for record in records {
            TaskFiles.delete(of: record, defaultDirectory: configuration.defaultDirectory)
        }
        hub.publish(.journalChanged)
        fill()
        finishIfIdle()
        return removed
    }

    /// `noticeReorder()` takes back the tasks handed ahead when the queue order was changed
    /// since the last poll, before an action frees a slot (see `takeBackIfReordered()`).
    private func noticeReorder() {
        guard case .running = phase else { return }
        do {
            try takeBackIfReordered()
        } catch {
            lastJournalError = error
        }
    }

    /// `changeStates(_:to:)` moves tasks to `state` in the journal and returns those moved.
    private func changeStates(_ ids: [TaskID], to state: TaskState) -> [TaskID] {
        dropUpcoming()
        do {
            let moved = try journal.updateStates(ids, to: state)
            if !moved.isEmpty { hub.publish(.journalChanged) }
            return moved
        } catch {
            lastJournalError = error
            return []
        }
    }
}
