import FerryKit

/// Running the queue: `run(untilIdle:)` and `stop()`, the end of a run, and the poll of the
/// journal that notices what other processes changed.
extension Scheduler {
    /// `run(untilIdle:)` runs the queue: with `untilIdle` it returns when nothing is running,
    /// waiting for a retry or runnable any more (headless `ferry resume`); otherwise it runs
    /// until `stop()` (the TUI). Calling it while it runs does nothing.
    public func run(untilIdle: Bool) async {
        guard phase == .idle else { return }
        phase = .running(untilIdle: untilIdle)
        dropUpcoming()  // the queue may have changed since the last run
        takingBack.removeAll()
        startsToMark.removeAll()
        markedCount = 0
        do {
            if try journal.requeueInterrupted() > 0 {
                removeLeftoverPartialFiles()
            }
            lastRevision = try journal.revision()
            lastOrderRevision = try journal.orderRevision()
        } catch {
            lastJournalError = error
        }
        startPoller()
        // The real slots first, so that their transfers start while the tasks to hand ahead
        // are chosen, named and recorded (144 of them at 16 at once).
        fill(realSlotsOnly: true)
        fill()
        if !finishIfIdle() {
            await withCheckedContinuation { runWaiter = $0 }
        }
        poller?.cancel()
        poller = nil
        phase = .idle
    }

    /// `removeLeftoverPartialFiles()` runs after a crash (tasks were left `running`): a process
    /// killed after recording a batch of downloads done, before removing their `.part` names
    /// (still linked to the finished files), left those names behind. Only the downloads
    /// finished last can be concerned: at most one batch, fewer than the tasks that can be
    /// running at once; a few times that many are checked.
    private func removeLeftoverPartialFiles() {
        let limit = min(2_048, 4 * (1 + SlotPlanner.finishingFactor) * configuration.maximumConcurrent)
        guard let records = try? journal.recentlyDone(limit: limit) else { return }
        for record in records {
            guard let finalPath = record.finalPath, let url = record.spec.urls.first,
                  let destination = try? destination(for: record, url: url) else { continue }
            destination.removeLeftoverPartialFile(of: finalPath, owner: delegateFactory.commitMark(for: record.id))
        }
    }

    /// `stop()` cancels the running transfers, puts them back to `queued` (runnable next
    /// time), drops pending retries, and returns when no transfer is left; `run(untilIdle:)`
    /// then returns.
    public func stop() async {
        guard case .running = phase else { return }
        stopTransfers()
        if !finishIfIdle() {
            await withCheckedContinuation { stopWaiters.append($0) }
        }
    }

    /// `stopTransfers()` begins stopping: pending retries are dropped and running transfers
    /// cancelled, to be recorded `queued`; the run ends once none is left (`finishIfIdle()`).
    private func stopTransfers() {
        phase = .stopping
        for timer in retryTimers.values {
            timer.cancel()
        }
        retryTimers.removeAll()
        for id in Array(running.keys) {
            interrupt(id, intent: .requeue)
        }
    }

    /// `finishIfIdle()` ends `run(untilIdle:)` when there is nothing left to do, and returns
    /// whether it did.
    @discardableResult
    func finishIfIdle() -> Bool {
        switch phase {
        case .idle, .running(untilIdle: false):
            return false
        case .stopping:
            guard running.isEmpty, endings.isEmpty else { return false }
        case .running(untilIdle: true):
            if let error = lastJournalError, error.isWriteFailure {
                // Nothing can be recorded (a full disk, a read-only file system): waiting would
                // never end. The run stops as `stop()` stops it; the caller reports the error.
                stopTransfers()
                guard running.isEmpty, endings.isEmpty else { return false }
                break
            }
            guard running.isEmpty, endings.isEmpty, retryTimers.isEmpty else { return false }
            do {
                guard try journal.nextRunnable(limit: 1, excluding: [], after: nil, among: runnable).isEmpty else { return false }
            } catch {
                lastJournalError = error
            }
        }
        let waiter = runWaiter
        runWaiter = nil
        let stopping = stopWaiters
        stopWaiters.removeAll()
        phase = .idle
        waiter?.resume()
        for continuation in stopping {
            continuation.resume()
        }
        return true
    }

    /// `startPoller()` starts `poller`: `poll()` every `pollInterval` until cancelled.
    private func startPoller() {
        let interval = configuration.pollInterval
        poller = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled, let self else { return }
                await self.poll()
            }
        }
    }

    /// `poll()` reads the journal's revision and, when it moved, reconciles running tasks
    /// with their rows and fills free slots.
    func poll() {
        guard case .running = phase else { return }
        do {
            let revision = try journal.revision()
            guard revision != lastRevision else { return }
            lastRevision = revision
            dropUpcoming()
            try takeBackIfReordered()
        } catch {
            lastJournalError = error
            finishIfIdle()
            return
        }
        reconcile()
        applyJournalLimits()
        hub.publish(.journalChanged)
        fill()
        finishIfIdle()
    }

    /// `takeBackIfReordered()` reads the journal's `orderRevision()` and, when the queue order
    /// was changed since it was last read, takes back the tasks handed ahead: before a slot is
    /// freed (a pause, a removal), so that the session does not start a task chosen in the old
    /// order in it.
    func takeBackIfReordered() throws(QueueError) {
        let order = try journal.orderRevision()
        guard order != lastOrderRevision else { return }
        lastOrderRevision = order
        takeBackHandedAhead()
    }

    /// `takeBackHandedAhead()` takes back from the session the tasks handed to it ahead of need
    /// that it has not started yet (still `queued` in the journal), after the user changed the
    /// queue order or lowered the limits: the next transfers are chosen again, in the order of
    /// the moment they are chosen (nothing of theirs was touched yet). Nothing is chosen until
    /// every one of them has ended (`takingBack`): they end one at a time, and a choice made while
    /// some are still out would pass over them, or hand one back ahead of a task moved before it.
    func takeBackHandedAhead() {
        var waiting: [RunningTask] = []
        for entry in running.values where entry.intent == nil && !entry.finishing && !entry.transfer.hasStarted {
            waiting.append(entry)
        }
        // In the order they were handed (the order of their rows then), so that they end in an
        // order that does not depend on how the dictionary is laid out.
        waiting.sort { ($0.record.priority, -$0.record.position) > ($1.record.priority, -$1.record.position) }
        for entry in waiting {
            takingBack.insert(entry.record.id)
            interrupt(entry.record.id, intent: .requeue)
        }
    }

    /// `journalDidChange()` tells the scheduler the journal was changed (by this process's
    /// other code); it acts at once instead of at the next poll.
    public func journalDidChange() {
        lastRevision = -1
        poll()
    }

    /// `reconcile(_:)` stops transfers whose rows were paused, cancelled or removed, and drops
    /// retries of such tasks: of the tasks `watched`, every one handed to the session or
    /// waiting for a retry by default.
    func reconcile(_ watched: [TaskID]? = nil) {
        let watched = watched ?? (Array(running.keys) + Array(retryTimers.keys))
        guard !watched.isEmpty else { return }
        let states: [TaskID: TaskState]
        do {
            states = try journal.states(of: watched)
        } catch {
            lastJournalError = error
            return
        }
        for id in watched where running[id]?.intent == nil {
            switch states[id] {
            case nil: interrupt(id, intent: .removed)
            case .paused: interrupt(id, intent: .pause)
            case .cancelled: interrupt(id, intent: .cancel)
            default: break
            }
        }
        for id in watched where retryTimers[id] != nil && states[id] != .queued {
            retryTimers.removeValue(forKey: id)?.cancel()
        }
    }
}
