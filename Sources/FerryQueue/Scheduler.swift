import FerryKit
import Foundation
import Synchronization

/// `Scheduler` runs the journal's queued tasks through FerryKit sessions: a global and a
/// per-host concurrency limit, queue order (priority, then position), retries on timers,
/// mirrors, and the pause, resume, retry and remove of tasks.
///
/// It is a thin coordinator: only the rows of running tasks are loaded; the rest of the
/// queue stays in SQLite (`Journal.nextRunnable(limit:excluding:)` reads a few rows when a
/// slot frees). While it runs it reads `Journal.revision()` once per `pollInterval` to act
/// on changes made by other processes (`ferry add`, `ferry pause`, `ferry remove`).
///
/// The caller holds the state directory's `EngineLock`: `run(untilIdle:)` puts tasks left
/// `running` by a crash back to `queued`. An actor: every method may be called from any task.
public actor Scheduler {
    /// `journal` is the queue this scheduler runs.
    public let journal: Journal
    /// `thread` runs this actor's work (journal writes, decisions): a thread of its own, a
    /// little below the transfer engine's priority (`BookkeepingThread`).
    private let thread = BookkeepingThread(name: "ferry-schedule")

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        thread.asUnownedSerialExecutor()
    }
    /// `configuration` holds the limits and defaults.
    public let configuration: SchedulerConfiguration
    let delegateFactory: any DownloadDelegateFactory
    let hub = SchedulerEventHub()
    private let mainLane: SessionLane
    /// `stagesTransfers` is true when the main session holds transfers beyond the limits
    /// itself (`SessionConfiguration.maximumActiveTransfers`, per host too), so that tasks can
    /// be handed to it ahead of need (see `chooseCandidates()`).
    private let stagesTransfers: Bool

    /// `running` holds every task with a transfer attempt in flight, and nothing else.
    var running: [TaskID: RunningTask] = [:]
    /// `finishingCount` counts the `running` tasks whose network part is over (`finishing`).
    private var finishingCount = 0
    /// `finishingFactor` times the concurrency limit is the most tasks finishing at once.
    static let finishingFactor = 4
    /// `retryTimers` are tasks waiting for a retry; they stay `queued` in the journal.
    private var retryTimers: [TaskID: Task<Void, Never>] = [:]
    /// `failedAttempts` counts the failed attempts of this run per task, for the retry limit.
    private var failedAttempts: [TaskID: Int] = [:]
    /// `progressed` are tasks whose last attempt moved the download on before it failed: such
    /// an attempt does not spend the retry budget (a server that drops every few hundred KB
    /// still gets the file through).
    private var progressed: Set<TaskID> = []
    /// `unproductive` counts the failed attempts of this run per task that did not move the
    /// download on: the retry budget.
    private var unproductive: [TaskID: Int] = [:]
    /// `restarts` counts the fresh starts of tasks whose file changed on the server.
    private var restarts: [TaskID: Int] = [:]
    /// `mirrorIndex` is the URL each task with a failed mirror has moved on to.
    private var mirrorIndex: [TaskID: Int] = [:]
    /// `destinationsInUse` are the `.part` paths of running downloads (catalogue 14).
    var destinationsInUse: Set<String> = []
    /// `directories` are destinations by directory path, their URL and path already worked
    /// out (a queue usually writes into a few directories); at most `directoryCacheLimit`.
    private var directories: [String: DownloadDestination] = [:]
    private static let directoryCacheLimit = 64
    /// `upcoming` are queued tasks read ahead of need, in queue order, for `fill()`. Their
    /// state may have moved on (`markRunning` starts only tasks still queued); it is dropped
    /// whenever the order may have changed: a journal revision from elsewhere, a task queued
    /// again, a retry that falls due, a state change asked of this scheduler (`dropUpcoming()`).
    private var upcoming: [TaskRecord] = []
    /// `readFrontier` is the place in queue order of the last task read ahead: every queued
    /// task before it is in `upcoming`, running or waiting for a retry, so journal reads go on
    /// after it; `nil` (read from the head) once `upcoming` is dropped. A task queued again
    /// elsewhere moves the revision, and the next poll drops both (as `run` does at its start).
    private var readFrontier: Journal.QueuePlace?
    /// `runnable` is which queued tasks this scheduler may run (`SchedulerConfiguration.onlyTasks`).
    private let runnable: Journal.RunnableFilter
    /// `endings` are ended attempts not yet recorded; `concludeEndings()` records them together.
    private var endings: [Ending] = []
    /// `concludeQueued` is true while a call of `concludeEndings()` is due (queued, or at the
    /// end of `drainFinished()`), so `conclude` queues no other.
    private var concludeQueued = false
    /// `commitTimer` records the endings left waiting by `drainFinished()` (see
    /// `mayWaitToRecord()`) at the latest `commitDelay` after it was set; `nil` when none is set.
    private var commitTimer: Task<Void, Never>?
    /// `commitDelay` is the longest a done download waits to be recorded with others.
    static let commitDelay = Duration.milliseconds(5)
    /// `finished` are transfers that ended, handed over from the threads that end them
    /// (`TransferTask.onFinish`) until `drainFinished()` takes them all in one actor turn.
    private let finished = Mutex(FinishedTransfers())
    /// `readAhead` is the fewest candidates one journal read of `fill()` asks for.
    static let readAhead = 64
    /// `upcomingLimit` bounds `upcoming`.
    static let upcomingLimit = 256
    private var phase = Phase.idle
    private var lastRevision: Int64 = -1
    /// The journal's `orderRevision()` when last read: a manual reorder since then takes back
    /// the tasks handed ahead (`takeBackHandedAhead()`).
    private var lastOrderRevision: Int64 = 0
    private var poller: Task<Void, Never>?
    private var runWaiter: CheckedContinuation<Void, Never>?
    private var stopWaiters: [CheckedContinuation<Void, Never>] = []
    /// `summary` counts how attempts ended since the scheduler was made.
    public private(set) var summary = SchedulerSummary()
    /// `lastJournalError` is the last journal failure met while scheduling; `nil` if none.
    public private(set) var lastJournalError: QueueError?
    /// `failures` holds the kind of each task's last failure (read from any thread).
    public nonisolated let failures = TaskFailures()

    /// `Ending` is an ended attempt waiting in `endings`. A class: a batch of them is read
    /// several times over, and a copy of the struct (task record, outcome, response) cost
    /// thousands of instructions in retains and releases.
    private final class Ending {
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

        init(id: TaskID, record: TaskRecord, outcome: Result<TransferResult, FerryError>, intent: StopIntent?,
             response: HTTPResponse?, partPath: String?, holdsSlot: Bool) {
            self.id = id
            self.record = record
            self.outcome = outcome
            self.intent = intent
            self.response = response
            self.partPath = partPath
            self.holdsSlot = holdsSlot
        }
    }

    /// `FinishedTransfers` is the hand-over of transfers whose network part or whole attempt
    /// ended, in order, to the actor.
    private struct FinishedTransfers {
        var waiting: [Handover] = []
        var drainQueued = false
    }

    private enum Handover {
        case transportEnded(TaskID, TransferTask)
        case finished(TaskID, TransferTask, Result<TransferResult, FerryError>)
    }

    private enum Phase: Equatable {
        case idle
        case running(untilIdle: Bool)
        case stopping
    }

    /// `init(journal:configuration:session:delegateFactory:)` makes a scheduler that runs
    /// transfers on `session` (a new `SessionManager` by default; tasks with a speed limit get
    /// sessions of their own made from its configuration) and makes download delegates with
    /// `delegateFactory` (a `ResumableDownloadDelegateFactory` checkpointing into `journal`
    /// by default).
    public init(
        journal: Journal,
        configuration: SchedulerConfiguration,
        session: SessionManager? = nil,
        delegateFactory: (any DownloadDelegateFactory)? = nil
    ) {
        self.journal = journal
        self.configuration = configuration
        self.delegateFactory = delegateFactory ?? ResumableDownloadDelegateFactory(journal: journal)
        runnable = Journal.RunnableFilter(only: configuration.onlyTasks)
        var sessionConfiguration = SessionConfiguration()
        sessionConfiguration.maximumActiveTransfers = configuration.maximumConcurrent
        sessionConfiguration.maximumActiveTransfersPerHost = configuration.maximumPerHost
        let main = session ?? SessionManager(configuration: sessionConfiguration)
        mainLane = SessionLane(session: main, ownsSession: session == nil, hub: hub)
        let limits = main.configuration
        stagesTransfers = limits.maximumActiveTransfers.map { $0 <= configuration.maximumConcurrent } == true
            && limits.maximumActiveTransfersPerHost.map { $0 <= configuration.maximumPerHost } == true
    }

    deinit {
        poller?.cancel()
        commitTimer?.cancel()
        mainLane.close()
        hub.finish()
        thread.stop()
    }

    /// `events()` returns a stream of every event published from now on (a follower that
    /// must not be woken per event uses `observe(_:)`).
    public nonisolated func events() -> AsyncStream<SchedulerEvent> {
        hub.subscribe()
    }

    /// `observe(_:)` calls `handler` with every event published from now on, on the thread
    /// that publishes it (the engine's for `started`, `progress` and `transferred`, this
    /// actor's for the others), until `finishEvents()`. `handler` must be quick and must not
    /// block: it holds up transfers.
    public nonisolated func observe(_ handler: @escaping @Sendable (SchedulerEvent) -> Void) {
        _ = hub.observe(handler)
    }

    /// `finishEvents()` ends every event stream once the events already published have been
    /// delivered, so a follower that reads to the end misses none (call it after `run` returns).
    public nonisolated func finishEvents() {
        hub.finish()
    }

    // MARK: - Running

    /// `run(untilIdle:)` runs the queue: with `untilIdle` it returns when nothing is running,
    /// waiting for a retry or runnable any more (headless `ferry resume`); otherwise it runs
    /// until `stop()` (the TUI). Calling it while it runs does nothing.
    public func run(untilIdle: Bool) async {
        guard phase == .idle else { return }
        phase = .running(untilIdle: untilIdle)
        dropUpcoming()  // the queue may have changed since the last run
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
        let limit = min(2_048, 4 * (1 + Scheduler.finishingFactor) * configuration.maximumConcurrent)
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
    private func finishIfIdle() -> Bool {
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
    private func poll() {
        guard case .running = phase else { return }
        do {
            let revision = try journal.revision()
            guard revision != lastRevision else { return }
            lastRevision = revision
            dropUpcoming()
            let order = try journal.orderRevision()
            if order != lastOrderRevision {
                lastOrderRevision = order
                takeBackHandedAhead()
            }
        } catch {
            lastJournalError = error
            finishIfIdle()
            return
        }
        reconcile()
        hub.publish(.journalChanged)
        fill()
        finishIfIdle()
    }

    /// `takeBackHandedAhead()` puts the tasks handed to the session ahead of need that it has
    /// not started yet back to `queued`, after the user changed the queue order: the next
    /// transfers are chosen again in the new order (nothing of theirs was touched yet).
    private func takeBackHandedAhead() {
        var waiting: [RunningTask] = []
        for entry in running.values where entry.intent == nil && !entry.finishing && !entry.transfer.hasStarted {
            waiting.append(entry)
        }
        // In queue order: the engine ends them in the order they are cancelled, and each one
        // queued again may be chosen at once, so the first in the queue must come back first.
        waiting.sort { ($0.record.priority, -$0.record.position) > ($1.record.priority, -$1.record.position) }
        for entry in waiting {
            interrupt(entry.record.id, intent: .requeue)
        }
    }

    /// `journalDidChange()` tells the scheduler the journal was changed (by this process's
    /// other code); it acts at once instead of at the next poll.
    public func journalDidChange() {
        lastRevision = -1
        poll()
    }

    /// `reconcile()` stops transfers whose rows were paused, cancelled or removed, and drops
    /// retries of such tasks.
    private func reconcile() {
        let watched = Array(running.keys) + Array(retryTimers.keys)
        guard !watched.isEmpty else { return }
        let states: [TaskID: TaskState]
        do {
            states = try journal.states(of: watched)
        } catch {
            lastJournalError = error
            return
        }
        for id in Array(running.keys) where running[id]?.intent == nil {
            switch states[id] {
            case nil: interrupt(id, intent: .removed)
            case .paused: interrupt(id, intent: .pause)
            case .cancelled: interrupt(id, intent: .cancel)
            default: break
            }
        }
        for id in Array(retryTimers.keys) where states[id] != .queued {
            retryTimers.removeValue(forKey: id)?.cancel()
        }
    }

    // MARK: - Scheduling

    /// `fill()` starts queued tasks while slots are free: candidates come from `upcoming`
    /// first, then from journal reads, and the round costs one commit. Tasks whose host is at
    /// its limit are skipped for this round; a few more pages are read to find others.
    /// Candidates read but not started are kept in `upcoming` (at most `upcomingLimit`), so a
    /// slot that frees usually needs no journal read.
    func fill() {
        let chosen = claimFileNames(chooseCandidates())
        guard !chosen.isEmpty else { return }
        let moved: Set<TaskID>
        do {
            moved = Set(try journal.markRunning(Scheduler.ids(of: chosen), fileNames: Scheduler.fileNames(of: chosen)))
        } catch {
            lastJournalError = error
            return
        }
        start(chosen, moved: moved)
    }

    /// `Candidate` is a task chosen for a free slot, with the URL it starts from and its host.
    typealias Candidate = (TaskRecord, TransferURL, String)

    /// `ids(of:)` are the candidates' task ids, in order. Static, so its closure is not
    /// isolated to the actor (see `chooseCandidates`).
    private static func ids(of candidates: [Candidate]) -> [TaskID] {
        candidates.map { $0.0.id }
    }

    /// `chooseCandidates(writing:)` picks the queued tasks that take the free slots (see
    /// `fill()`), without marking them running. `writing` is true when the journal is written
    /// anyway (endings are recorded): every free slot is taken, not only a batch of them.
    private func chooseCandidates(writing: Bool = false) -> [Candidate] {
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
    private func dropUpcoming() {
        upcoming.removeAll()
        readFrontier = nil
    }

    /// `start(_:moved:)` starts the chosen tasks the journal marked running (`moved`).
    private func start(_ chosen: [Candidate], moved: Set<TaskID>) {
        if moved.count < chosen.count {
            dropUpcoming()
        }
        for (record, url, host) in chosen where moved.contains(record.id) {
            start(record, url: url, hostKey: host)
        }
    }

    /// `start(_:url:hostKey:)` makes and resumes the transfer of a task already marked
    /// `running`; a task that cannot even be built (an upload's file is gone) ends at once.
    private func start(_ record: TaskRecord, url: TransferURL, hostKey: String) {
        let lane: SessionLane
        let transfer: TransferTask
        var partPath: String?
        do throws(FerryError) {
            if let upload = record.spec.upload {
                lane = mainLane
                let request = try Scheduler.uploadRequest(url: url, upload: upload, headers: record.spec.headers)
                transfer = lane.session.task(kind: .upload, request: request, delegate: ReplyTaskDelegate(keeping: UploadReply.bodyLimit))
            } else {
                lane = mainLane
                // Validated when the task was added: one parse, the full check only to word an error.
                let parsed: URL
                if let quick = URL(string: url.string) { parsed = quick } else { parsed = try Request.validatedURL(url.string) }
                let destination = try destination(for: record, url: url, parsed: parsed)
                // Only a task that ran before can have committed its file before a kill.
                if record.startedAt != nil,
                   let committed = committedOutcome(of: record, destination: destination, url: url) {
                    hub.publish(.started(record.id))
                    conclude(record.id, record: record, outcome: committed, intent: nil, response: nil)
                    return
                }
                // The .part this task's delegate uses (another's .part at the name is skipped).
                partPath = destination.partialFilePath(for: delegateFactory.commitMark(for: record.id),
                                                       resuming: record.resume.resumeData?.canResume == true)
                var request = Request(url: parsed, headers: Scheduler.headers(record.spec.headers))
                // A resume goes to the URL that served the bytes (the secrets stay bound to the
                // origin they were given for); after a mirror failed, to the mirror's own URL.
                if mirrorIndex[record.id] == nil, let resume = record.resume.resumeData, resume.canResume,
                   let finalURL = resume.finalURL {
                    request = request.moved(to: finalURL)
                }
                request.maximumReceiveSpeed = Scheduler.speedCap(of: record)
                if let limit = configuration.lowSpeedLimit { request.lowSpeedLimit = limit }
                if let time = configuration.lowSpeedTime { request.lowSpeedTime = time }
                let delegate = delegateFactory.makeDelegate(for: record, destination: destination)
                transfer = lane.session.task(kind: .download, request: request, delegate: delegate)
            }
        } catch {
            hub.publish(.started(record.id))
            conclude(record.id, record: record, outcome: .failure(error), intent: nil, response: nil)
            return
        }
        if let partPath { destinationsInUse.insert(partPath) }
        running[record.id] = RunningTask(record: record, hostKey: hostKey, lane: lane,
                                         transfer: transfer, partPath: partPath)
        lane.register(transfer, as: record.id)
        let id = record.id
        // `started` and `transferred` are published on the engine thread, when the session
        // starts the transfer (it may hold it back, see `stagesTransfers`) and when its network
        // part is over: in the order they happen, so at most the limit are between the two.
        transfer.onStart { [hub] in
            hub.publish(.started(id))
        }
        let checksum = record.spec.upload == nil && !delegateFactory.verifiesChecksum ? record.spec.checksum : nil
        if let checksum {
            // A delegate that does not check the digest itself: hash the file off the actor.
            Task { [weak self] in
                var outcome = await transfer.outcome()
                if case .success(let result) = outcome, let file = result.fileURL {
                    outcome = checksum.verify(file: file).map { result }
                }
                self?.transferFinished(id, transfer: transfer, outcome: outcome)
            }
        } else {
            transfer.onFinish { [weak self] outcome in
                self?.transferFinished(id, transfer: transfer, outcome: outcome)
            }
        }
        transfer.onTransportEnd { [weak self, hub] in
            hub.publish(.transferred(id))
            self?.hand(over: .transportEnded(id, transfer))
        }
        transfer.resume()
    }

    /// `transferFinished(_:transfer:outcome:)` hands an ended transfer to the actor, from the
    /// thread that ended it; transfers ending while the actor is busy are taken together.
    private nonisolated func transferFinished(
        _ id: TaskID, transfer: TransferTask, outcome: Result<TransferResult, FerryError>
    ) {
        hand(over: .finished(id, transfer, outcome))
    }

    /// `hand(over:)` queues `handover` for `drainFinished()`, from any thread.
    private nonisolated func hand(over handover: Handover) {
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

    /// `drainFinished()` frees the slots of transfers whose network part is over, ends every
    /// handed-over attempt, then records them all at once (or, with none ended, fills the
    /// freed slots).
    private func drainFinished() {
        let batch = finished.withLock { state in
            state.drainQueued = false
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        let queued = concludeQueued
        concludeQueued = true  // conclude() queues nothing: the endings are recorded below
        for handover in batch {
            switch handover {
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
    private func mayWaitToRecord() -> Bool {
        guard case .running = phase, !running.isEmpty, endings.count < configuration.maximumConcurrent else {
            return false
        }
        for ending in endings {
            guard !ending.holdsSlot, ending.intent == nil, case .success = ending.outcome else { return false }
        }
        return true
    }

    private func commitTimerFired() {
        commitTimer = nil
        guard !endings.isEmpty, !concludeQueued else { return }
        concludeEndings()
    }

    /// `transportEnded(_:transfer:)` marks a running task `finishing` (`transferred` was
    /// published on the engine thread): its slot is free for the next task.
    private func transportEnded(_ id: TaskID, transfer: TransferTask) {
        guard let entry = running[id], entry.transfer === transfer, !entry.finishing else { return }
        entry.finishing = true
        finishingCount += 1
    }

    /// `directoryPrototype(_:)` is a destination in the directory at `path` (its file name is
    /// still to be set).
    func directoryPrototype(_ path: String) -> DownloadDestination {
        if let known = directories[path] { return known }
        if directories.count >= Scheduler.directoryCacheLimit { directories.removeAll() }
        let made = DownloadDestination(directory: URL(fileURLWithPath: path, isDirectory: true), fileName: "")
        directories[path] = made
        return made
    }

    /// `speedCap(of:)` is a download's `max-download-limit`, carried by its request; `nil`
    /// for the others and for uploads.
    static func speedCap(of record: TaskRecord) -> Int64? {
        record.spec.upload == nil ? record.spec.options.maxDownloadLimit : nil
    }

    private func currentURL(of record: TaskRecord) -> TransferURL {
        let index = mirrorIndex[record.id] ?? 0
        return record.spec.urls[min(index, record.spec.urls.count - 1)]
    }

    // MARK: - Ending

    private func transferEnded(_ id: TaskID, transfer: TransferTask, outcome: Result<TransferResult, FerryError>) {
        guard let entry = running[id], entry.transfer === transfer else { return }
        running.removeValue(forKey: id)
        if entry.finishing { finishingCount -= 1 }
        entry.lane.unregister(transfer)
        if entry.record.spec.upload == nil, transfer.progress.receivedBytes > entry.record.resume.durableOffset {
            progressed.insert(id)
        }
        // The `.part` path stays in use until the attempt is recorded (`concludeEndings()`): a
        // done download's `.part` name is removed then, and no other task may take it before.
        if let partPath = entry.partPath, entry.intent == .cancel || entry.intent == .removed {
            // A cancelled or removed task will not resume: its partial file goes (its own only).
            DownloadDestination.removePartialFile(at: partPath, owner: delegateFactory.commitMark(for: id))
        }
        conclude(id, record: entry.record, outcome: outcome, intent: entry.intent, response: transfer.response,
                 partPath: entry.partPath, holdsSlot: !entry.finishing)
    }

    /// `conclude(...)` queues an ended attempt for `concludeEndings()`, which runs once the
    /// attempts ending at about the same time have all been queued.
    private func conclude(
        _ id: TaskID, record: TaskRecord,
        outcome: Result<TransferResult, FerryError>, intent: StopIntent?, response: HTTPResponse?,
        partPath: String? = nil, holdsSlot: Bool = true
    ) {
        endings.append(Ending(id: id, record: record, outcome: outcome, intent: intent, response: response,
                              partPath: partPath, holdsSlot: holdsSlot))
        guard !concludeQueued else { return }
        concludeQueued = true
        Task { [weak self] in
            await self?.concludeEndings()
        }
    }

    /// `concludeEndings(chosen:)` decides what each queued ended attempt means for its task,
    /// chooses the tasks that take the freed slots (unless the caller `chosen` them), records
    /// both in the journal with one commit, publishes the `ended` events in order, then starts
    /// the chosen tasks (and fills any slot still free, such as one of a task queued again by
    /// this very batch).
    private func concludeEndings(chosen: [Candidate]? = nil) {
        concludeQueued = false
        let batch = endings
        endings.removeAll()
        guard !batch.isEmpty else { return }
        // Loops rather than closures (see `chooseCandidates`).
        var decisions: [Decision] = []
        decisions.reserveCapacity(batch.count)
        var recorded: [AttemptOutcome] = []
        recorded.reserveCapacity(batch.count)
        for ending in batch {
            let decision = decide(ending.id, record: ending.record, outcome: ending.outcome, intent: ending.intent,
                                  response: ending.response)
            decisions.append(decision)
            guard ending.intent != .removed else { continue }
            recorded.append(AttemptOutcome(id: ending.id, state: decision.state, finalPath: decision.finalPath,
                                           message: decision.message, reply: decision.reply, length: decision.length))
        }
        let chosen = claimFileNames(chosen ?? chooseCandidates(writing: true))
        var states: [TaskState?]
        var moved: Set<TaskID> = []
        do {
            let written = try journal.recordOutcomes(recorded, markingRunning: Scheduler.ids(of: chosen),
                                                     fileNames: Scheduler.fileNames(of: chosen))
            states = written.states
            moved = Set(written.running)
        } catch {
            lastJournalError = error
            states = recorded.map(\.state)
        }
        var next = 0
        var leftovers: [String] = []
        for (ending, decision) in zip(batch, decisions) {
            guard ending.intent != .removed else {
                hub.publish(.ended(ending.id, .cancelled, error: nil))
                continue
            }
            let state = states[next]
            next += 1
            // Recorded done: the .part still linked to the file (see recoverCommittedFile) goes.
            if state == .done, ending.intent == nil, let partPath = ending.partPath,
               case .success(let result) = ending.outcome, result.partialNameKept {
                leftovers.append(result.partialFilePath ?? partPath)
            }
            concluded(ending.id, state: state, decision: decision, intent: ending.intent)
        }
        // The next transfers start first: the engine has work while the names are removed.
        start(chosen, moved: moved)
        for ending in batch {
            guard let partPath = ending.partPath else { continue }
            destinationsInUse.remove(partPath)
        }
        for path in leftovers {
            unlink(path)
        }
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
        switch state {
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

    private func scheduleRetry(_ id: TaskID, after delay: Double) {
        retryTimers[id]?.cancel()
        retryTimers[id] = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(Int64(delay * 1000)))
            guard !Task.isCancelled else { return }
            await self?.retryDue(id)
        }
    }

    private func retryDue(_ id: TaskID) {
        guard retryTimers.removeValue(forKey: id) != nil else { return }
        dropUpcoming()
        fill()
        finishIfIdle()
    }

    /// `decide(...)` turns an outcome into the task's next state, error message and retry.
    private func decide(
        _ id: TaskID, record: TaskRecord, outcome: Result<TransferResult, FerryError>,
        intent: StopIntent?, response: HTTPResponse?
    ) -> Decision {
        if let intent {
            progressed.remove(id)
            switch intent {
            case .pause: return Decision(state: .paused)
            case .requeue: return Decision(state: .queued)
            case .cancel, .removed: return Decision(state: .cancelled)
            }
        }
        let error: FerryError
        switch outcome {
        case .success(let result):
            if record.spec.upload != nil, !result.response.isSuccess {
                error = .validation(.unacceptableStatus(
                    result.response.statusCode, reason: result.response.reasonPhrase,
                    url: URLMasking.mask(result.response.url), body: result.data))
            } else {
                failedAttempts.removeValue(forKey: id)
                unproductive.removeValue(forKey: id)
                mirrorIndex.removeValue(forKey: id)
                restarts.removeValue(forKey: id)
                progressed.remove(id)
                let upload = record.spec.upload != nil
                return Decision(state: .done, finalPath: result.fileURL?.path,
                                reply: upload ? UploadReply.summary(of: result) : nil,
                                length: upload ? result.bytesSent : result.bytesReceived)
            }
        case .failure(let failure):
            error = failure
        }
        let message = error.description
        if Scheduler.isDiskFull(error) {
            return Decision(state: .paused, message: "\(message); paused until there is room", failure: .localFile)
        }
        if case .cancelled = error {
            return Decision(state: .queued, message: nil)
        }
        if case .integrity(.changedOnServer) = error, restarts[id, default: 0] < ResumableDownload.maximumRestarts {
            // The checkpoint is back at zero: start over at once, no attempt spent.
            restarts[id, default: 0] += 1
            progressed.remove(id)
            return Decision(state: .queued, message: message)
        }
        let attempts = (failedAttempts[id] ?? 0) + 1
        failedAttempts[id] = attempts
        // Only attempts that did not move the download on spend the retry budget.
        if progressed.remove(id) == nil { unproductive[id, default: 0] += 1 }
        var policy = configuration.retryPolicy
        if let retries = record.spec.options.retries {
            policy.retryLimit = max(0, retries)
        }
        if policy.shouldRetry(error, afterAttempt: max(1, unproductive[id] ?? 0)) {
            let retryAfter = response?.headers["Retry-After"].flatMap { RetryPolicy.retryAfterSeconds($0) }
            return Decision(state: .queued, message: message,
                            retryDelay: policy.delay(afterAttempt: attempts, retryAfter: retryAfter))
        }
        let index = mirrorIndex[id] ?? 0
        if Scheduler.isRemote(error), index + 1 < record.spec.urls.count {
            mirrorIndex[id] = index + 1
            failedAttempts.removeValue(forKey: id)
            unproductive.removeValue(forKey: id)
            return Decision(state: .queued, message: "\(message); trying the next mirror")
        }
        failedAttempts.removeValue(forKey: id)
        unproductive.removeValue(forKey: id)
        mirrorIndex.removeValue(forKey: id)
        return Decision(state: .failed, message: message, failure: error.kind)
    }

    // MARK: - Acting on tasks

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
            failedAttempts.removeValue(forKey: id)
            unproductive.removeValue(forKey: id)
        }
        fill()
        return moved
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
            failedAttempts.removeValue(forKey: id)
            unproductive.removeValue(forKey: id)
            mirrorIndex.removeValue(forKey: id)
        }
        fill()
        return moved
    }

    /// `remove(_:deleteFile:)` removes tasks from the journal, stopping their transfers, and
    /// with `deleteFile` also deletes their finished or partial files; returns how many
    /// tasks existed.
    @discardableResult
    public func remove(_ ids: [TaskID], deleteFile: Bool) -> Int {
        var records: [TaskRecord] = []
        if deleteFile {
            for id in ids where running[id] == nil {
                if let record = try? journal.task(id) { records.append(record) }
            }
        }
        for id in ids {
            retryTimers.removeValue(forKey: id)?.cancel()
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
