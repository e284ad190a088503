import FerryKit
import Foundation

/// Recording endings: ended attempts are decided, recorded with one journal write together
/// with the marks of started tasks and the next tasks to hand over, and published; retries
/// wait on timers.
extension Scheduler {
    /// `Ending` is an ended attempt waiting in `endings`. A class: a batch of them is read
    /// several times over, and a copy of the struct (task record, outcome, response) cost
    /// thousands of instructions in retains and releases.
    final class Ending {
        let id: TaskID
        let record: TaskRecord
        let outcome: Result<TransferResult, FerryError>
        let intent: StopIntent?
        let response: HTTPResponse?
        /// The `.part` beside the destination, removed once the journal records the task done.
        let partPath: String?
        /// Whether the attempt still holds a concurrency slot (its network part had not been
        /// reported over); see `chooseCandidates()`.
        let holdsSlot: Bool
        /// Whether the attempt moved the download on (received more than was durable when it
        /// started): such a failed attempt does not spend the retry budget.
        let madeProgress: Bool
        /// Whether the attempt started (a task held ahead of need and given back did not: its
        /// row was never touched, and nothing is recorded).
        let ran: Bool
        /// Whether the journal marked the task `running` (else its mark goes with its outcome).
        let marked: Bool

        init(id: TaskID, record: TaskRecord, outcome: Result<TransferResult, FerryError>, intent: StopIntent?,
             response: HTTPResponse?, partPath: String?, holdsSlot: Bool, madeProgress: Bool, ran: Bool, marked: Bool) {
            self.id = id
            self.record = record
            self.outcome = outcome
            self.intent = intent
            self.response = response
            self.partPath = partPath
            self.holdsSlot = holdsSlot
            self.madeProgress = madeProgress
            self.ran = ran
            self.marked = marked
        }

        /// `isRecorded` is true when the attempt is written to the journal: not for a removed
        /// task, nor for one given back before it started (its row is as the giver left it).
        var isRecorded: Bool {
            intent != .removed && (ran || intent == nil)
        }
    }

    /// `conclude(...)` queues an ended attempt for `concludeEndings()`, which runs once the
    /// attempts ending at about the same time have all been queued. `ran` is false for a task
    /// given back before its transfer started; `marked` is true once its row reads `running`.
    func conclude(
        _ id: TaskID, record: TaskRecord,
        outcome: Result<TransferResult, FerryError>, intent: StopIntent?, response: HTTPResponse?,
        partPath: String? = nil, holdsSlot: Bool = true, madeProgress: Bool = false, ran: Bool = true, marked: Bool = false
    ) {
        endings.append(Ending(id: id, record: record, outcome: outcome, intent: intent, response: response,
                              partPath: partPath, holdsSlot: holdsSlot, madeProgress: madeProgress,
                              ran: ran, marked: marked))
        guard !concludeQueued else { return }
        concludeQueued = true
        Task { [weak self] in
            await self?.concludeEndings()
        }
    }

    /// `concludeEndings(chosen:)` decides what each queued ended attempt means for its task,
    /// chooses the tasks that take the freed slots (unless the caller `chosen` them), records
    /// both in the journal with one commit (with the marks of the started tasks that now fit,
    /// and of the ended ones never marked), publishes the `ended` events in order, then starts
    /// the chosen tasks (and fills any slot still free, such as one of a task queued again by
    /// this very batch). A task given back before it started publishes `ended` only when it is
    /// queued again: a pause or a removal of a waiting task is told by whoever made it.
    func concludeEndings(chosen: [Candidate]? = nil) {
        concludeQueued = false
        let batch = endings
        endings.removeAll()
        guard !batch.isEmpty else { return }
        // Loops rather than closures (see `chooseCandidates`).
        var decisions: [Decision] = []
        decisions.reserveCapacity(batch.count)
        var recorded: [AttemptOutcome] = []
        recorded.reserveCapacity(batch.count)
        var intents: [StopIntent?] = []
        intents.reserveCapacity(batch.count)
        var starting: [TaskID] = []
        for ending in batch {
            // An attempt the lost network ended waits for it, queued, without spending a retry.
            let waits = networkOffline && Scheduler.isNetworkFailure(ending.outcome)
                && !Scheduler.isLoopback(hostKey: Scheduler.hostKey(currentURL(of: ending.record)))
            let intent = ending.intent ?? (waits ? .requeue : nil)
            intents.append(intent)
            let decision = attempts.decide(ending.id, spec: ending.record.spec, outcome: ending.outcome,
                                           intent: intent, madeProgress: ending.madeProgress,
                                           holdsBytes: ending.madeProgress || ending.record.resume.durableOffset > 0,
                                           response: ending.response)
            decisions.append(decision)
            if ending.marked { markedCount -= 1 }
            guard ending.isRecorded else { continue }
            if !ending.marked { starting.append(ending.id) }
            // A finished download's file as it was named, for "already saved" on a later run.
            let saved = decision.state == .done ? decision.finalPath.flatMap(SavedFile.at) : nil
            recorded.append(AttemptOutcome(id: ending.id, state: decision.state, finalPath: decision.finalPath,
                                           message: decision.message, reply: decision.reply, length: decision.length,
                                           savedFile: saved))
        }
        // The endings' `.part` names are free before anything is chosen: a task this very
        // round queues again and chooses at once (a restart after the file changed on the
        // server, before any commit marked its attempt running) writes its own name again,
        // not `NAME.1.EXT` beside its old `.part`. A new task never takes a `.part` that
        // still exists (see `freshDestination`).
        for ending in batch {
            guard let partPath = ending.partPath else { continue }
            destinationsInUse.remove(partPath)
        }
        let chosen = claimFileNames(chosen ?? chooseCandidates(writing: true))
        let marks = marksThatFit()
        var states: [TaskState?]
        var moved: Set<TaskID> = []
        var isRecorded = true
        do {
            let written = try journal.recordRound(started: starting + marks, outcomes: recorded,
                                                  handing: Scheduler.ids(of: chosen), fileNames: Scheduler.fileNames(of: chosen))
            states = written.states
            moved = Set(written.handed)
            // Of the tasks that moved to `running`, those that started (the others ended here).
            var started: [TaskID] = []
            for id in written.started where !starting.contains(id) { started.append(id) }
            recordMarks(marks, moved: started)
        } catch {
            lastJournalError = error
            states = recorded.map(\.state)
            isRecorded = false
            startsToMark.insert(contentsOf: marks, at: 0)
        }
        var next = 0
        for (index, (ending, decision)) in zip(batch, decisions).enumerated() {
            guard ending.intent != .removed else {
                if ending.ran { hub.publish(.ended(ending.id, .cancelled, error: nil)) }
                continue
            }
            guard ending.isRecorded else {
                // Given back before it started: back in the queue, or paused or cancelled by
                // whoever changed its row (which tells of it, as of any waiting task).
                if decision.state == .queued {
                    concluded(ending.id, state: .queued, decision: decision, intent: intents[index])
                }
                continue
            }
            let state = states[next]
            next += 1
            // Recorded done: the .part still linked to the file (see recoverCommittedFile) goes,
            // before `ended` is published. A done task is never started again, so a .part left
            // by a kill after that event would stay for good (no recovery looks at it).
            if isRecorded, state == .done, ending.intent == nil, let partPath = ending.partPath,
               case .success(let result) = ending.outcome, result.partialNameKept {
                unlink(result.partialFilePath ?? partPath)
            }
            concluded(ending.id, state: state, decision: decision, intent: intents[index])
        }
        // Tasks taken back are queued again now: once all are, the final `fill()` chooses.
        if !takingBack.isEmpty {
            for ending in batch { takingBack.remove(ending.id) }
        }
        start(chosen, moved: moved)
        fill()
        finishIfIdle()
    }

    /// `concluded(_:state:decision:intent:)` counts a recorded attempt, schedules its retry
    /// and publishes `ended`; `state` is `nil` when the task was removed meanwhile.
    private func concluded(_ id: TaskID, state: TaskState?, decision: Decision, intent: StopIntent?) {
        guard let state else {
            hub.publish(.ended(id, .cancelled, error: nil))
            return
        }
        failures.record(id, state == .failed || state == .paused ? decision.failure : nil)
        // An adopted task (another command's) ends in that command's summary, not this run's.
        switch adopted.contains(id) ? nil : state {
        case .done: summary.completed += 1
        case .failed:
            summary.failed += 1
            summary.note(decision.failure ?? .transfer)
        case .paused where decision.failure != nil:
            summary.pausedByError += 1
            summary.note(decision.failure ?? .localFile)
        case .queued where intent == nil: summary.retried += 1
        default: break
        }
        if state == .queued {
            dropUpcoming()
        }
        if state == .queued, let delay = decision.retryDelay {
            scheduleRetry(id, after: delay)
            hub.publish(.willRetry(id, delay: delay))
        }
        hub.publish(.ended(id, state, error: decision.message, path: state == .done ? decision.finalPath : nil))
    }

    /// `scheduleRetry(_:after:)` lets task `id` run again once `delay` seconds have passed.
    private func scheduleRetry(_ id: TaskID, after delay: Double) {
        retryTimers[id]?.cancel()
        retryTimers[id] = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(Int64(delay * 1000)))
            guard !Task.isCancelled else { return }
            await self?.retryDue(id)
        }
    }

    /// `retryDue(_:)` makes a task whose retry fell due runnable and fills the free slots.
    private func retryDue(_ id: TaskID) {
        guard retryTimers.removeValue(forKey: id) != nil else { return }
        dropUpcoming()
        fill()
        finishIfIdle()
    }
}
