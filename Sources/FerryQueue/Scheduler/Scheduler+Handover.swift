import FerryKit
import Synchronization

/// The hand-over of endings: transfers whose network part or whole attempt ended are handed
/// from the engine's threads to the actor, which takes them all in one turn.
extension Scheduler {
    /// `FinishedTransfers` is the hand-over of transfers whose network part or whole attempt
    /// ended, in order, to the actor.
    struct FinishedTransfers {
        /// `waiting` are the hand-overs not yet taken, in order.
        var waiting: [Handover] = []
        /// `drainQueued` is true while a `drainFinished()` is queued on the actor's thread.
        var drainQueued = false
    }

    /// `Handover` is one transfer handed to the actor: the session started it, its network
    /// part is over, or its whole attempt ended with an outcome.
    enum Handover {
        case started(TaskID, TransferTask)
        case transportEnded(TaskID, TransferTask)
        case finished(TaskID, TransferTask, Result<TransferResult, FerryError>)
    }

    /// `transferFinished(_:transfer:outcome:)` hands an ended transfer to the actor, from the
    /// thread that ended it; transfers ending while the actor is busy are taken together.
    nonisolated func transferFinished(
        _ id: TaskID, transfer: TransferTask, outcome: Result<TransferResult, FerryError>
    ) {
        hand(over: .finished(id, transfer, outcome))
    }

    /// `hand(over:)` queues `handover` for `drainFinished()`, from any thread.
    nonisolated func hand(over handover: Handover) {
        let queuesDrain = finished.withLock { state -> Bool in
            state.waiting.append(handover)
            guard !state.drainQueued else { return false }
            state.drainQueued = true
            return true
        }
        guard queuesDrain else { return }
        // Straight to this actor's thread: no task to make and start elsewhere first.
        thread.submit { [weak self] in
            self?.assumeIsolated { $0.drainFinished() }
        }
    }

    /// `drainFinished()` notes the transfers the session started, frees the slots of transfers
    /// whose network part is over, ends every handed-over attempt, then records them all at
    /// once (or, with none ended, fills the freed slots and marks the started tasks).
    func drainFinished() {
        let batch = finished.withLock { state in
            state.drainQueued = false
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        let queued = concludeQueued
        concludeQueued = true  // conclude() queues nothing: the endings are recorded below
        for handover in batch {
            switch handover {
            case .started(let id, let transfer):
                transferStarted(id, transfer: transfer)
            case .transportEnded(let id, let transfer):
                transportEnded(id, transfer: transfer)
            case .finished(let id, let transfer, let outcome):
                transferEnded(id, transfer: transfer, outcome: outcome)
            }
        }
        if endings.isEmpty {
            concludeQueued = queued
            fill()
        } else if mayWaitToRecord() {
            // Tasks to start take the endings into their journal write; with none, the endings
            // wait for the next ones.
            let chosen = chooseCandidates()
            guard chosen.isEmpty else {
                concludeEndings(chosen: chosen)
                return
            }
            concludeQueued = queued
            if commitTimer == nil {
                commitTimer = Task { [weak self] in
                    try? await Task.sleep(for: Scheduler.commitDelay)
                    await self?.commitTimerFired()
                }
            }
        } else {
            concludeEndings()
        }
    }

    /// `mayWaitToRecord()` is true when the queued endings may wait a little to be recorded
    /// with the next ones (a group commit: one journal write for many downloads instead of
    /// one each): all are downloads done on their own whose slots are already free, fewer
    /// than the concurrency limit, and more transfers are under way to end soon. Anything
    /// else (a failure, a stop, a slot still held, the last transfer) is recorded at once.
    func mayWaitToRecord() -> Bool {
        guard case .running = phase, !running.isEmpty, endings.count < configuration.maximumConcurrent else {
            return false
        }
        for ending in endings {
            guard !ending.holdsSlot, ending.intent == nil, case .success = ending.outcome else { return false }
        }
        return true
    }

    /// `commitTimerFired()` records the endings that waited for others, unless a record is due anyway.
    private func commitTimerFired() {
        commitTimer = nil
        guard !endings.isEmpty, !concludeQueued else { return }
        concludeEndings()
    }

    /// `absorbTransportEnds()` takes the transfers whose network part ended that are still
    /// waiting to be handed over (the others stay, in order): a choice made while the engine
    /// ends transfers faster than this actor drains them counts their slots free. With 5,000
    /// small downloads at 16 at once, choices saw 120 transfers under way while the engine ran
    /// 16 and had nothing left to start.
    func absorbTransportEnds() {
        let ended = finished.withLock { state -> [(TaskID, TransferTask)] in
            // Most choices find none: nothing is copied then.
            guard state.waiting.contains(where: { if case .transportEnded = $0 { true } else { false } }) else { return [] }
            var ended: [(TaskID, TransferTask)] = []
            var kept: [Handover] = []
            for handover in state.waiting {
                if case .transportEnded(let id, let transfer) = handover {
                    ended.append((id, transfer))
                } else {
                    kept.append(handover)
                }
            }
            state.waiting = kept
            return ended
        }
        for (id, transfer) in ended {
            transportEnded(id, transfer: transfer)
        }
    }

    /// `transportEnded(_:transfer:)` marks a running task `finishing` (`transferred` was
    /// published on the engine thread): its slot is free for the next task.
    func transportEnded(_ id: TaskID, transfer: TransferTask) {
        guard let entry = running[id], entry.transfer === transfer, !entry.finishing else { return }
        entry.finishing = true
        finishingCount += 1
    }

    /// `transferEnded(_:transfer:outcome:)` takes an ended attempt out of `running` and queues
    /// it to be recorded; the own `.part` of a download removed with its files goes at once.
    private func transferEnded(_ id: TaskID, transfer: TransferTask, outcome: Result<TransferResult, FerryError>) {
        guard let entry = running[id], entry.transfer === transfer else { return }
        running.removeValue(forKey: id)
        if entry.finishing { finishingCount -= 1 }
        forgetStart(of: entry)
        entry.lane.unregister(transfer)
        // The `.part` path stays in use until the attempt is recorded (`concludeEndings()`): a
        // done download's `.part` name is removed then, and no other task may take it before.
        if let partPath = entry.partPath, entry.deletesPartialFile {
            // Its own only: another task's `.part` at the name is left alone.
            DownloadDestination.removePartialFile(at: partPath, owner: delegateFactory.commitMark(for: id))
        }
        let madeProgress = entry.record.spec.upload == nil
            && transfer.progress.receivedBytes > entry.record.resume.durableOffset
        conclude(id, record: entry.record, outcome: outcome, intent: entry.intent, response: transfer.response,
                 partPath: entry.partPath, holdsSlot: !entry.finishing, madeProgress: madeProgress,
                 ran: entry.started || transfer.hasStarted, marked: entry.marked)
    }
}
