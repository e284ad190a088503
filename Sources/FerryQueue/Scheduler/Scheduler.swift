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
    let thread = BookkeepingThread(name: "ferry-schedule")

    /// `unownedExecutor` runs this actor on `thread`.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        thread.asUnownedSerialExecutor()
    }
    /// `configuration` holds the limits and defaults; the limits are those in force
    /// (`setLimits(maximumConcurrent:maximumPerHost:)` changes them while the queue runs).
    public internal(set) var configuration: SchedulerConfiguration
    /// `delegateFactory` makes each download attempt's delegate.
    let delegateFactory: any DownloadDelegateFactory
    /// `hub` publishes the scheduler's events.
    let hub = SchedulerEventHub()
    /// `mainLane` is the session every transfer runs on.
    let mainLane: SessionLane
    /// `stagesTransfers` is true when the main session holds transfers beyond the limits
    /// itself (`SessionConfiguration.maximumActiveTransfers`, per host too), so that tasks can
    /// be handed to it ahead of need (see `chooseCandidates()`).
    let stagesTransfers: Bool

    /// `running` holds every task handed to the session and not yet ended: transfers in flight
    /// and tasks held ahead of need (still `queued` in the journal), and nothing else.
    var running: [TaskID: RunningTask] = [:]
    /// `startsToMark` are the tasks whose transfers started and whose rows are not yet marked
    /// `running`, in the order they started (see `marksThatFit()`).
    var startsToMark: [TaskID] = []
    /// `markedCount` counts the tasks this scheduler marked `running` in the journal whose
    /// attempts are not recorded yet.
    var markedCount = 0
    /// `finishingCount` counts the `running` tasks whose network part is over (`finishing`).
    var finishingCount = 0
    /// `retryTimers` are tasks waiting for a retry; they stay `queued` in the journal.
    var retryTimers: [TaskID: Task<Void, Never>] = [:]
    /// `networkOffline` is true while the network monitor followed (`follow(_:)`) says no
    /// route is left: nothing starts, and the tasks stopped for it wait queued.
    var networkOffline = false
    /// `networkWatch` follows the network monitor's statuses (`follow(_:)`).
    var networkWatch: Task<Void, Never>?
    /// `attempts` decides what ended attempts mean (retries, mirrors, pauses) and keeps the
    /// per-task counts of this run.
    var attempts: AttemptPolicy
    /// `destinationsInUse` are the `.part` paths of running downloads (catalogue 14).
    var destinationsInUse: Set<String> = []
    /// `claims` are what `claimFileNames(_:)` learned of the tasks it just named, for `start`
    /// in the same round (`Claim`).
    var claims: [TaskID: Claim] = [:]
    /// `directories` are destinations by directory path, their URL and path already worked
    /// out (a queue usually writes into a few directories); at most `directoryCacheLimit`.
    var directories: [String: DownloadDestination] = [:]
    /// `directoryCacheLimit` bounds `directories`.
    static let directoryCacheLimit = 64
    /// `upcoming` are queued tasks read ahead of need, in queue order, for `fill()`. Their
    /// state may have moved on (only tasks still queued are handed over); it is dropped
    /// whenever the order may have changed: a journal revision from elsewhere, a task queued
    /// again, a retry that falls due, a state change asked of this scheduler (`dropUpcoming()`).
    var upcoming: [TaskRecord] = []
    /// `readFrontier` is the place in queue order of the last task read ahead: every queued
    /// task before it is in `upcoming`, running or waiting for a retry, so journal reads go on
    /// after it; `nil` (read from the head) once `upcoming` is dropped. A task queued again
    /// elsewhere moves the revision, and the next poll drops both (as `run` does at its start).
    var readFrontier: Journal.QueuePlace?
    /// `runnable` is which queued tasks this scheduler may run (`SchedulerConfiguration.onlyTasks`,
    /// and the tasks it adopted since).
    var runnable: Journal.RunnableFilter
    /// `adopted` are the tasks another command handed to this scheduler of one command's own
    /// tasks (`adopt(_:)`): another `ferry get` of the same queue.
    public internal(set) var adopted: Set<TaskID> = []
    /// `endings` are ended attempts not yet recorded; `concludeEndings()` records them together.
    var endings: [Ending] = []
    /// `concludeQueued` is true while a call of `concludeEndings()` is due (queued, or at the
    /// end of `drainFinished()`), so `conclude` queues no other.
    var concludeQueued = false
    /// `commitTimer` records the endings left waiting by `drainFinished()` (see
    /// `mayWaitToRecord()`) at the latest `commitDelay` after it was set; `nil` when none is set.
    var commitTimer: Task<Void, Never>?
    /// `commitDelay` is the longest a done download waits to be recorded with others.
    static let commitDelay = Duration.milliseconds(5)
    /// `finished` are transfers that ended, handed over from the threads that end them
    /// (`TransferTask.onFinish`) until `drainFinished()` takes them all in one actor turn.
    let finished = Mutex(FinishedTransfers())
    /// `readAhead` is the fewest candidates one journal read of `fill()` asks for.
    static let readAhead = 64
    /// `upcomingLimit` bounds `upcoming`.
    static let upcomingLimit = 256
    /// `phase` says whether a run is under way and how it ends.
    var phase = Phase.idle
    /// `lastRevision` is the journal's `revision()` when last read; `-1` forces the next poll.
    var lastRevision: Int64 = -1
    /// The journal's `orderRevision()` when last read: a manual reorder since then takes back
    /// the tasks handed ahead (`takeBackHandedAhead()`).
    var lastOrderRevision: Int64 = 0
    /// `takingBack` are the tasks handed ahead that `takeBackHandedAhead()` is taking back and
    /// whose attempts are not recorded yet: while any is left, nothing is chosen to start (a
    /// choice made then would pass over them), and once all are queued again, the next tasks
    /// are chosen in the queue order of that moment.
    var takingBack: Set<TaskID> = []
    /// `poller` reads the journal's revision every `pollInterval` while a run is under way.
    var poller: Task<Void, Never>?
    /// `runWaiter` is the `run(untilIdle:)` waiting for its run to end.
    var runWaiter: CheckedContinuation<Void, Never>?
    /// `stopWaiters` are the `stop()` calls waiting for the transfers to end.
    var stopWaiters: [CheckedContinuation<Void, Never>] = []
    /// `summary` counts how attempts ended since the scheduler was made.
    public internal(set) var summary = SchedulerSummary()
    /// `lastJournalError` is the last journal failure met while scheduling; `nil` if none.
    public internal(set) var lastJournalError: QueueError?
    /// `failures` holds the kind of each task's last failure (read from any thread).
    public nonisolated let failures = TaskFailures()

    /// `Phase` is where a scheduler stands: idle, running (until idle, or until stopped), or
    /// stopping (its transfers are being cancelled).
    enum Phase: Equatable {
        case idle
        case running(untilIdle: Bool)
        case stopping
    }

    /// `init(journal:configuration:session:delegateFactory:)` makes a scheduler that runs
    /// transfers on `session` (a new `SessionManager` with the scheduler's limits by default;
    /// a session whose limits are at most the scheduler's is handed tasks ahead of need, and
    /// its limits follow `setLimits`) and makes download delegates with `delegateFactory` (a
    /// `ResumableDownloadDelegateFactory` checkpointing into `journal` by default).
    public init(
        journal: Journal,
        configuration: SchedulerConfiguration,
        session: SessionManager? = nil,
        delegateFactory: (any DownloadDelegateFactory)? = nil
    ) {
        self.journal = journal
        self.configuration = configuration
        var factory = delegateFactory ?? ResumableDownloadDelegateFactory(journal: journal)
        if var resumable = factory as? ResumableDownloadDelegateFactory {
            // What a download does about its sources is an event, for whoever follows it.
            let hub = hub
            resumable.sourceNote = { id, text in hub.publish(.note(id, text)) }
            factory = resumable
        }
        self.delegateFactory = factory
        attempts = AttemptPolicy(retryPolicy: configuration.retryPolicy)
        runnable = Journal.RunnableFilter(only: configuration.onlyTasks)
        var sessionConfiguration = SessionConfiguration()
        sessionConfiguration.maximumActiveTransfers = configuration.maximumConcurrent
        sessionConfiguration.maximumActiveTransfersPerHost = configuration.maximumPerHost
        sessionConfiguration.headTrace = configuration.headTrace
        sessionConfiguration.trustManager = configuration.trustManager
        let overall = configuration.overallLimits(kept: (try? journal.overallLimits()) ?? OverallLimits())
        sessionConfiguration.overallLimits = overall
        let main = session ?? SessionManager(configuration: sessionConfiguration)
        if session != nil, main.overallLimits != overall { main.requestOverallLimits(overall) }
        mainLane = SessionLane(session: main, ownsSession: session == nil, hub: hub)
        stagesTransfers = main.maximumActiveTransfers.map { $0 <= configuration.maximumConcurrent } == true
            && main.maximumActiveTransfersPerHost.map { $0 <= configuration.maximumPerHost } == true
    }

    deinit {
        networkWatch?.cancel()
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
}
