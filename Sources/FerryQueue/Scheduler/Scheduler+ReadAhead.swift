import FerryKit

/// The read-ahead: queued rows read ahead of need (`upcoming`, `readFrontier`), from which
/// `chooseCandidates(writing:)` picks the tasks that take the free slots.
extension Scheduler {
    /// `chooseCandidates(writing:)` picks the queued tasks that take the free slots (see
    /// `fill()`), without marking them running. `writing` is true when the journal is written
    /// anyway (endings are recorded): every free slot is taken, not only a batch of them.
    func chooseCandidates(writing: Bool = false) -> [Candidate] {
        guard case .running = phase else { return [] }
        // An ended attempt holds its slot until it is recorded and its `ended` published, or
        // until its network part was reported over (`transferred`): a file being made durable
        // does not keep the next transfer waiting, and the more files wait for the disk
        // together, the fewer syncs they need (`GroupSync`). At most `finishingFactor` times
        // `maximumConcurrent` such files at once (each holds a descriptor).
        //
        // When the main session holds transfers beyond the limits itself (`stagesTransfers`),
        // up to `limit` more tasks are handed to it ahead of need: one starts the moment
        // another's network part is over, without waiting for this actor. Every transfer runs on
        // that one session (a task's speed cap travels with its request). The bound on
        // finishing files counts the tasks handed ahead (the session starts them on its own).
        let limit = configuration.maximumConcurrent
        // Plain loops, not closures: a closure made here is isolated to this actor, and each
        // call of one checks at run time that it runs on the actor's executor.
        var holding = 0
        for ending in endings where ending.holdsSlot { holding += 1 }
        let transferring = running.count - finishingCount + holding
        let ahead = stagesTransfers ? 2 * limit : 0
        var free = min(limit + ahead - transferring,
                       (1 + Scheduler.finishingFactor) * limit - running.count - endings.count)
        guard free > 0 else { return [] }
        // While every real slot is taken, the tasks handed ahead are topped up in batches: once
        // three quarters of them have started, so one journal write marks many, or with the
        // endings' write, which is made anyway.
        if !writing, transferring >= limit, free < ahead * 3 / 4 { return [] }
        var perHost: [String: Int] = [:]
        for task in running.values where !task.finishing {
            perHost[task.hostKey, default: 0] += 1
        }
        for ending in endings where ending.holdsSlot {
            perHost[Scheduler.hostKey(currentURL(of: ending.record)), default: 0] += 1
        }
        var chosen: [Candidate] = []
        var kept: [TaskRecord] = []
        func consider(_ record: TaskRecord) {
            guard free > 0 else {
                kept.append(record)
                return
            }
            let url = currentURL(of: record)
            let host = Scheduler.hostKey(url)
            guard perHost[host, default: 0] < configuration.maximumPerHost + ahead else {
                kept.append(record)
                return
            }
            perHost[host, default: 0] += 1
            free -= 1
            chosen.append((record, url, host))
        }
        // The tasks read ahead come first; those not reached stay where they are, after `kept`.
        var considered = 0
        while considered < upcoming.count, free > 0 {
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
        while free > 0, page < 8, upcoming.count < Scheduler.upcomingLimit {
            let limit = max(free * 4, Scheduler.readAhead)
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
