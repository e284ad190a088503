import FerryKit

/// The read-ahead: queued rows read ahead of need (`upcoming`, `readFrontier`), from which
/// `chooseCandidates(writing:)` picks the tasks that take the free slots.
extension Scheduler {
    /// `chooseCandidates(writing:)` picks the queued tasks that take the free slots (see
    /// `fill()`), without handing them over. `writing` is true when the journal is written
    /// anyway (endings are recorded): every free slot is taken, not only a batch of them.
    func chooseCandidates(writing: Bool = false, realSlotsOnly: Bool = false) -> [Candidate] {
        guard case .running = phase else { return [] }
        // Tasks handed ahead are being taken back after a change of order: the choice waits
        // until all are queued again, and is then made in the order of that moment.
        guard takingBack.isEmpty else { return [] }
        // An ended attempt holds its slot until it is recorded and its `ended` published, or
        // until its network part was reported over (`transferred`): a file being made durable
        // does not keep the next transfer waiting, and the more files wait for the disk
        // together, the fewer syncs they need (`GroupSync`). The planner bounds such files.
        //
        // When the main session holds transfers beyond the limits itself (`stagesTransfers`),
        // more tasks are handed to it ahead of need: one starts the moment another's network
        // part is over, without waiting for this actor. Every transfer runs on that one session
        // (a task's speed cap travels with its request). The bound on files counts the tasks
        // handed ahead (the session starts them on its own).
        //
        // Plain loops, not closures: a closure made here is isolated to this actor, and each
        // call of one checks at run time that it runs on the actor's executor.
        absorbTransportEnds()
        var holding = 0
        for ending in endings where ending.holdsSlot { holding += 1 }
        var planner = SlotPlanner(maximumConcurrent: configuration.maximumConcurrent,
                                  maximumPerHost: configuration.maximumPerHost, handsAhead: stagesTransfers,
                                  transferring: running.count - finishingCount + holding,
                                  holdingFiles: running.count + endings.count)
        guard planner.startsAny(writing: writing) else { return [] }
        if realSlotsOnly { planner.keepToRealSlots() }
        for task in running.values where !task.finishing {
            planner.count(host: task.hostKey)
        }
        for ending in endings where ending.holdsSlot {
            planner.count(host: Scheduler.hostKey(currentURL(of: ending.record)))
        }
        var chosen: [Candidate] = []
        var kept: [TaskRecord] = []
        func consider(_ record: TaskRecord) {
            let url = currentURL(of: record)
            let host = Scheduler.hostKey(url)
            // Without a network only this machine's own servers are reached.
            if networkOffline && !Scheduler.isLoopback(hostKey: host) {
                kept.append(record)
            } else if planner.admit(host: host) {
                chosen.append((record, url, host))
            } else {
                kept.append(record)
            }
        }
        // The tasks read ahead come first; those not reached stay where they are, after `kept`.
        var considered = 0
        while considered < upcoming.count, planner.free > 0 {
            let record = upcoming[considered]
            considered += 1
            if running[record.id] == nil, retryTimers[record.id] == nil {
                consider(record)
            }
        }
        upcoming.replaceSubrange(0..<considered, with: kept)
        kept.removeAll()
        var page = 0
        var excluded: Set<TaskID> = []
        while planner.free > 0, page < 8, upcoming.count < Scheduler.upcomingLimit {
            let limit = max(planner.free * 4, Scheduler.readAhead)
            if page == 0 { excluded = Set(running.keys).union(retryTimers.keys) }
            page += 1
            let candidates: [TaskRecord]
            do {
                candidates = try journal.nextRunnable(limit: limit, excluding: excluded, after: readFrontier, among: runnable)
            } catch {
                lastJournalError = error
                break
            }
            for record in candidates {
                consider(record)
            }
            if let last = candidates.last { readFrontier = Journal.QueuePlace(last) }
            upcoming.append(contentsOf: kept)
            kept.removeAll()
            if candidates.count < limit { break }
        }
        if upcoming.count > Scheduler.upcomingLimit {
            upcoming.removeSubrange(Scheduler.upcomingLimit...)
            readFrontier = upcoming.last.map(Journal.QueuePlace.init)
        }
        return chosen
    }

    /// `dropUpcoming()` forgets the tasks read ahead: the next fill reads from the queue's head.
    func dropUpcoming() {
        upcoming.removeAll()
        readFrontier = nil
    }
}
