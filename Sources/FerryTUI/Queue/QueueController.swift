import Dispatch
import FerryKit
import FerryQueue
import Synchronization

/// `QueueController` is the `TaskController` over the persistent queue: it shows the
/// journal's tasks in the front end and carries out the user's commands as journal writes
/// (or, for running tasks, through the in-process `TransferActivity`).
///
/// It never holds the whole queue: the list the front end's query asks for is kept as ids
/// only (`QueueListing`, 8 bytes per task), and rows are made for the tasks on and around the
/// screen (`TaskViewRequest`) and for the running ones, whose live progress it passes on.
/// All journal work happens on the controller's own serial worker queue, never on the front
/// end's thread. At attach it answers `TaskViewRequest.first`; afterwards it answers each
/// request of the front end, and answers the latest one again when the queue changes.
/// Changes made by other processes (`ferry add` from another shell) are noticed by reading
/// `Journal.revision()` once a second, between `attach(_:)` and `close()`; with nothing
/// changing, the front end is never woken and nothing is read but the revision.
///
/// Thread rules: `attach(_:)`, `show(_:)` and `perform(_:)` may be called from any thread;
/// all mutable state sits in one `Mutex`.
public final class QueueController: TaskController {
    /// `pollInterval` is how often the journal's revision is read while the front end is open.
    public static let pollInterval = DispatchTimeInterval.seconds(1)

    /// `State` is everything that changes, behind one lock.
    struct State {
        var inbox: EventInbox?
        /// The latest request of the front end.
        var request = TaskViewRequest.first
        /// True while a `show(_:)` waits for the worker.
        var showPending = false
        /// The list of the last answer; `nil` before the first, or when it must be read again.
        var listing: QueueListing?
        /// The rows of the last answer, by id.
        var shown: [TaskRow.ID: TaskRow] = [:]
        /// The rows of the tasks whose transfer runs, which live progress updates; change
        /// them with `setRunning(_:for:)`, which keeps `speeds`.
        private(set) var running: [TaskRow.ID: TaskRow] = [:]
        /// The summed speeds of the `running` rows, kept as they change (not summed per event).
        private(set) var speeds = TaskStats()
        /// The engine's limits, from the activity; `nil` until it told them.
        var limits: TransferLimits?
        /// The live progress of running tasks, from the activity.
        var live: [TaskRow.ID: TransferProgress] = [:]
        /// The tasks whose transfer the activity reported started and not yet ended. A task the
        /// journal says is running but that is not here waits in the engine for a free place
        /// (the scheduler hands tasks over ahead of need): its row shows it queued, so the
        /// table never shows more running than the limits allow.
        var started: Set<TaskRow.ID> = []
        /// When the ranges of each running split download on screen were last read
        /// (`rangesIfDue(of:progress:)`), in nanoseconds of uptime.
        var rangesReadAt: [TaskRow.ID: UInt64] = [:]
        var listener: Task<Void, Never>?
        var isClosed = false

        /// `stats` are the listing's counts with the running tasks' speeds.
        var stats: TaskStats {
            var stats = listing?.counts ?? TaskStats()
            stats.limits = limits
            stats.addSpeed(speeds.downloadSpeed, of: .download)
            stats.addSpeed(speeds.uploadSpeed, of: .upload)
            return stats
        }

        /// `setRunning(_:for:)` keeps `row` as the running row of task `id` (`nil`: none),
        /// moving its speed in or out of `speeds`.
        mutating func setRunning(_ row: TaskRow?, for id: TaskRow.ID) {
            if let old = running[id] { speeds.addSpeed(-max(0, old.speed), of: old.kind) }
            if let row { speeds.addSpeed(max(0, row.speed), of: row.kind) }
            running[id] = row
        }
    }

    let journal: Journal
    let activity: (any TransferActivity)?
    /// The activity's events, subscribed to at `init`: none is missed before `attach(_:)`
    /// (the engine may start before the front end attaches), and they wait until then.
    private let activityEvents: AsyncStream<ActivityEvent>?
    /// `directoryMemory` keeps the directory of the last download added, `nil` for none.
    let directoryMemory: DirectoryMemory?
    let worker = DispatchQueue(label: "ferry.tui.queue-controller")
    let state = Mutex(State())

    /// `init(journal:activity:directoryMemory:)` makes a controller over `journal`;
    /// `activity` is the in-process engine, `nil` by default (journal-only: nothing
    /// transfers); `directoryMemory` remembers the directory of each download added, `nil`
    /// (nothing remembered) by default.
    public init(journal: Journal, activity: (any TransferActivity)? = nil, directoryMemory: DirectoryMemory? = nil) {
        self.journal = journal
        self.activity = activity
        self.directoryMemory = directoryMemory
        activityEvents = activity?.events()
    }

    /// `attach(_:)` keeps the inbox, posts the snapshot, starts the revision poll and
    /// listens to the activity's events.
    public func attach(_ inbox: EventInbox) {
        let stream = activityEvents
        let executor = WorkerExecutor(queue: worker)
        let listener = stream.map { stream in
            // Runs on the worker (see `WorkerExecutor`), so events are handled in order with commands.
            Task(executorPreference: executor) { [weak self] in
                for await event in stream {
                    guard let self else { return }
                    self.handle(event)
                }
            }
        }
        let started = state.withLock { state -> Bool in
            guard !state.isClosed, state.inbox == nil else { return false }
            state.inbox = inbox
            state.listener = listener
            return true
        }
        guard started else {
            listener?.cancel()
            return
        }
        worker.async { self.answer(reading: true) }
        schedulePoll()
    }

    /// `show(_:)` keeps the request and answers it on the worker; a burst of requests (a key
    /// held down) is answered once, for the latest.
    public func show(_ request: TaskViewRequest) {
        let first = state.withLock { state -> Bool in
            state.request = request
            defer { state.showPending = true }
            return !state.showPending
        }
        guard first else { return }
        worker.async {
            self.state.withLock { $0.showPending = false }
            self.answer(reading: false)
        }
    }

    /// `perform(_:)` queues the command on the worker and returns at once.
    public func perform(_ command: TUICommand) {
        switch command {
        case .quit:
            stopWatching()
            return
        case .quitAndStop:
            stopWatching()
            activity?.stopEngine()
            return
        default:
            break
        }
        worker.async { self.execute(command) }
    }

    /// `close()` stops watching the journal and the activity, and waits until every command
    /// already queued has been written. Call it after the front end returned, before closing
    /// the journal.
    public func close() {
        stopWatching()
        worker.sync {}
    }

    /// `waitUntilIdle()` returns once everything queued on the worker so far has run.
    func waitUntilIdle() {
        worker.sync {}
    }

    private func stopWatching() {
        let listener = state.withLock { state in
            state.isClosed = true
            defer { state.listener = nil }
            return state.listener
        }
        listener?.cancel()
    }

    // MARK: - Worker

    /// `post(_:)` hands events to the front end, if attached. Worker only.
    func post(_ events: [TUIEvent]) {
        guard !events.isEmpty, let inbox = state.withLock({ $0.inbox }) else { return }
        inbox.post(contentsOf: events)
    }

    /// `report(_:)` shows a failure in the message line. Worker only.
    func report(_ error: QueueError) {
        post([.message(StatusMessage(error.description, isError: true))])
    }

    /// `schedulePoll()` reads the revision one `pollInterval` from now, and again after
    /// that, until the controller is closed.
    private func schedulePoll() {
        worker.asyncAfter(deadline: .now() + Self.pollInterval) { [weak self] in
            guard let self, !self.state.withLock({ $0.isClosed }) else { return }
            self.pollRevision()
            self.schedulePoll()
        }
    }

    /// `pollRevision()` answers again when the journal's revision moved, and tells the
    /// activity, so the engine acts on other processes' changes without a poll of its own.
    private func pollRevision() {
        if refreshIfChanged() {
            activity?.journalDidChange()
        }
    }

    /// `refreshIfChanged()` answers the latest request again, with the list read again, when
    /// the journal's revision differs from the one the list reflects; returns whether it did.
    /// Worker only.
    @discardableResult
    private func refreshIfChanged() -> Bool {
        do {
            let revision = try journal.revision()
            guard revision != state.withLock({ $0.listing?.revision }) else { return false }
        } catch {
            report(error)
            return false
        }
        answer(reading: true)
        return true
    }

    /// `answer(reading:)` posts the answer to the latest request: the rows it asks for, read
    /// from the journal, in the list, which is read again when `reading` or when the request's
    /// query changed. Worker only.
    func answer(reading: Bool) {
        dispatchPrecondition(condition: .onQueue(worker))
        let (request, kept, started, live) = state.withLock { state in
            (state.request, state.listing, activity == nil ? nil : state.started, state.live)
        }
        do {
            var listing = kept
            if reading || listing?.query != request.query {
                listing = try QueueListing(journal: journal, query: request.query, started: started, live: live)
            }
            guard var listing else { return }
            var records = try load(request, from: listing)
            if records.count < min(request.limit, max(0, listing.order.count - request.offset)) {
                // A task went away since the list was read: read it again, once.
                listing = try QueueListing(journal: journal, query: request.query, started: started, live: live)
                records = try load(request, from: listing)
                let found = Set(records.map(\.id.rawValue))
                let slice = slice(of: listing, for: request)
                listing.drop(Set(slice.filter { !found.contains($0) }))
            }
            post(answer(request, listing: listing, records: records))
        } catch {
            report(error)
        }
    }

    /// The ids of the listing's rows `request` asks for.
    private func slice(of listing: QueueListing, for request: TaskViewRequest) -> ArraySlice<TaskRow.ID> {
        let offset = min(request.offset, listing.order.count)
        return listing.order[offset..<min(listing.order.count, offset + request.limit)]
    }

    /// The tasks of the rows `request` asks for, in list order, those that still exist.
    private func load(_ request: TaskViewRequest, from listing: QueueListing) throws(QueueError) -> [TaskRecord] {
        let ids = slice(of: listing, for: request)
        let records = try journal.tasks(ids: ids.map { TaskID($0) })
        let byID = Dictionary(records.map { ($0.id.rawValue, $0) }, uniquingKeysWith: { (first: TaskRecord, _: TaskRecord) in first })
        return ids.compactMap { byID[$0] }
    }

    /// `answer(_:listing:records:)` keeps the listing and the rows made from `records`, and
    /// returns the window to post.
    private func answer(_ request: TaskViewRequest, listing: QueueListing, records: [TaskRecord]) -> [TUIEvent] {
        let segments = segmentsByTask(records)
        return state.withLock { state in
            state.listing = listing
            state.shown.removeAll(keepingCapacity: true)
            let rows = records.map { record in
                let row = remember(TaskRow(record: record, progress: state.live[record.id.rawValue],
                                           segments: segments[record.id] ?? []), in: &state)
                state.shown[row.id] = row
                return row
            }
            let offset = min(request.offset, listing.order.count)
            let window = TaskWindow(
                request: request, total: listing.order.count, offset: offset, rows: rows,
                anchorIndex: request.anchor.flatMap(listing.index(of:)), stats: state.stats)
            return [.window(window)]
        }
    }

    /// `refresh(_:ended:)` reads one task again and posts its row when it is on screen, or the
    /// answer again when it went away; `ended` when its transfer just ended (the counts follow
    /// its new state). Worker only.
    func refresh(_ id: TaskID, ended: Bool = false) {
        let record: TaskRecord?
        do {
            record = try journal.task(id)
        } catch {
            report(error)
            return
        }
        guard let record else {
            // Removed: its live row (and speed) goes; the list is read again without it.
            state.withLock { state in
                state.setRunning(nil, for: id.rawValue)
                state.live[id.rawValue] = nil
            }
            answer(reading: true)
            return
        }
        let segments = segmentsByTask([record])
        let events = state.withLock { state -> [TUIEvent] in
            let row = remember(TaskRow(record: record, progress: state.live[id.rawValue], segments: segments[id] ?? []), in: &state)
            if ended { state.listing?.ended(row.id, in: row.state) }
            guard state.shown[row.id] != nil else { return [.stats(state.stats)] }
            state.shown[row.id] = row
            return [.updateTasks([row]), .stats(state.stats)]
        }
        post(events)
    }

    /// `remember(_:in:)` notes a row about to be posted and returns it: a task the journal says
    /// runs shows queued until its transfer started; live progress is kept for running tasks
    /// only (a paused row shows no speed).
    private func remember(_ row: TaskRow, in state: inout State) -> TaskRow {
        var row = row
        row.state = QueueListing.shownState(row.state, of: row.id, started: activity == nil ? nil : state.started)
        if row.state == .running {
            state.setRunning(row, for: row.id)
        } else {
            state.setRunning(nil, for: row.id)
            state.live[row.id] = nil
        }
        return row
    }

    private func handle(_ event: ActivityEvent) {
        dispatchPrecondition(condition: .onQueue(worker))
        switch event {
        case .started(let id):
            state.withLock { state in
                state.started.insert(id.rawValue)
                state.listing?.started(id.rawValue)
            }
            refresh(id)
        case .progress(let id, let progress):
            let ranges = rangesIfDue(of: id, progress: progress)
            let events = state.withLock { state -> [TUIEvent] in
                guard var row = state.running[id.rawValue] else { return [] }
                state.live[id.rawValue] = progress
                row.apply(progress)
                if let ranges { row.doneRanges = ranges }
                guard row != state.running[id.rawValue] else { return [] }
                state.setRunning(row, for: id.rawValue)
                guard state.shown[row.id] != nil else { return [.stats(state.stats)] }
                state.shown[row.id] = row
                return [.updateTasks([row]), .stats(state.stats)]
            }
            post(events)
        case .ended(let id, _, _):
            state.withLock { state in
                state.live[id.rawValue] = nil
                state.started.remove(id.rawValue)
                state.rangesReadAt[id.rawValue] = nil
            }
            refresh(id, ended: true)
        case .journalChanged:
            // Every change to the queue moves the revision; progress arrives as events.
            refreshIfChanged()
        case .limits(let limits):
            let events = state.withLock { state -> [TUIEvent] in
                guard state.limits != limits else { return [] }
                state.limits = limits
                return [.stats(state.stats)]
            }
            post(events)
        case .engineStopped(let message):
            // No transfer runs any more: running rows show what the journal says.
            state.withLock { state in
                state.live.removeAll()
                state.started.removeAll()
                state.rangesReadAt.removeAll()
            }
            answer(reading: true)
            post([.message(StatusMessage(message, isError: true))])
        }
    }
}
