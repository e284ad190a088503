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
    /// `measuredSpan` is the seconds of counted bytes the header's rate needs: until its
    /// meter has that much, the running rows' own rates are summed instead.
    static let measuredSpan = 0.5

    /// `uptime()` is the seconds since boot, the controller's clock by default.
    @Sendable public static func uptime() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

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
        /// The bytes transferred, downloads and uploads, counted across tasks as progress
        /// arrives (a task that ends between two readings still counts): the header's rates.
        var downloaded = RateMeter()
        var uploaded = RateMeter()
        /// Each running task's own meter, from the start of its transfer.
        var taskMeters: [TaskRow.ID: RateMeter] = [:]
        /// The bytes of each running task already counted in the meters.
        var counted: [TaskRow.ID: Int64] = [:]
        /// The clock's time at the latest event or poll, in seconds.
        var now: Double = 0
        /// The statistics last posted by a poll's tick (`nil`: none yet).
        var tickedStats: TaskStats?
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

        /// `stats` are the listing's counts with the rates of the bytes counted (see
        /// `measuredSpan`).
        var stats: TaskStats {
            var stats = listing?.counts ?? TaskStats()
            stats.limits = limits
            stats.addSpeed(rate(downloaded, else: speeds.downloadSpeed), of: .download)
            stats.addSpeed(rate(uploaded, else: speeds.uploadSpeed), of: .upload)
            return stats
        }

        /// `rate(_:else:)` is `meter`'s rate now, or `summed` while the meter has counted for
        /// less than `measuredSpan`.
        private func rate(_ meter: RateMeter, else summed: Int64) -> Int64 {
            meter.span(at: now) >= QueueController.measuredSpan ? Int64(meter.rate(at: now).rounded()) : summed
        }

        /// `began(_:kind:bytes:)` starts measuring task `id`'s transfer at `now`, its bytes
        /// so far (`bytes`, on disk before it began) not counted.
        mutating func began(_ id: TaskRow.ID, kind: TaskKind, bytes: Int64) {
            taskMeters[id] = RateMeter(startingAt: now)
            counted[id] = bytes
            switch kind {
            case .download: downloaded.begin(at: now)
            case .upload: uploaded.begin(at: now)
            }
        }

        /// `count(_:kind:bytes:)` counts task `id`'s bytes past those already counted (a
        /// transfer that started over from zero counts from there; one whose start was not
        /// seen, from its first progress).
        mutating func count(_ id: TaskRow.ID, kind: TaskKind, bytes: Int64) {
            guard let before = counted[id] else {
                taskMeters[id] = RateMeter(startingAt: now)
                counted[id] = bytes
                return
            }
            counted[id] = bytes
            let delta = bytes - before
            guard delta > 0 else { return }
            taskMeters[id]?.count(delta, at: now)
            switch kind {
            case .download: downloaded.count(delta, at: now)
            case .upload: uploaded.count(delta, at: now)
            }
        }

        /// `stopMeasuring(_:)` forgets task `id`'s meter.
        mutating func stopMeasuring(_ id: TaskRow.ID) {
            taskMeters[id] = nil
            counted[id] = nil
        }

        /// `measured(_:)` is a running `row` whose engine reported no rate yet with the rate
        /// its own meter measured since its transfer began, and the time left at that rate.
        func measured(_ row: TaskRow) -> TaskRow {
            guard row.state == .running, row.speed <= 0, let meter = taskMeters[row.id] else { return row }
            var row = row
            let rate = meter.rate(at: now)
            row.speed = Int64(rate.rounded())
            if rate > 0, let total = row.bytesTotal {
                row.eta = Int((Double(max(0, total - row.bytesDone)) / rate).rounded(.up))
            }
            return row
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
    /// `clock` is the time in seconds on a monotonic scale, for the rates.
    let clock: @Sendable () -> Double

    /// `init(journal:activity:directoryMemory:clock:)` makes a controller over `journal`;
    /// `activity` is the in-process engine, `nil` by default (journal-only: nothing
    /// transfers); `directoryMemory` remembers the directory of each download added, `nil`
    /// (nothing remembered) by default; `clock` times the bytes counted for the rates,
    /// `uptime()` by default.
    public init(journal: Journal, activity: (any TransferActivity)? = nil, directoryMemory: DirectoryMemory? = nil,
                clock: @escaping @Sendable () -> Double = QueueController.uptime) {
        self.journal = journal
        self.activity = activity
        self.directoryMemory = directoryMemory
        self.clock = clock
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
            self.tick()
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

    /// `tick()` posts the header's figures again when the rates of the bytes counted moved
    /// (they fall to zero when nothing arrives, with no event to say so). Worker only.
    private func tick() {
        let now = clock()
        let events = state.withLock { state -> [TUIEvent] in
            state.now = now
            guard state.downloaded.total > 0 || state.uploaded.total > 0 else { return [] }
            let stats = state.stats
            guard stats != state.tickedStats else { return [] }
            state.tickedStats = stats
            return [.stats(stats)]
        }
        post(events)
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
                state.stopMeasuring(id.rawValue)
            }
            answer(reading: true)
            return
        }
        let segments = segmentsByTask([record])
        let events = state.withLock { state -> [TUIEvent] in
            let row = remember(TaskRow(record: record, progress: state.live[id.rawValue], segments: segments[id] ?? []), in: &state)
            if ended {
                // A transfer done since its last progress: its last bytes count too.
                if row.state == .done { state.count(row.id, kind: row.kind, bytes: row.bytesDone) }
                state.stopMeasuring(row.id)
                state.listing?.ended(row.id, in: row.state)
            }
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
            row = state.measured(row)
            state.setRunning(row, for: row.id)
        } else {
            state.setRunning(nil, for: row.id)
            state.live[row.id] = nil
        }
        return row
    }

    private func handle(_ event: ActivityEvent) {
        dispatchPrecondition(condition: .onQueue(worker))
        let now = clock()
        state.withLock { $0.now = now }
        switch event {
        case .started(let id):
            state.withLock { state in
                state.started.insert(id.rawValue)
                state.listing?.started(id.rawValue)
            }
            refresh(id)
            // Its bytes are counted from here (those on disk before it began are not).
            state.withLock { state in
                guard let row = state.running[id.rawValue] else { return }
                state.began(row.id, kind: row.kind, bytes: row.bytesDone)
            }
        case .progress(let id, let progress):
            let ranges = rangesIfDue(of: id, progress: progress)
            let events = state.withLock { state -> [TUIEvent] in
                guard var row = state.running[id.rawValue] else { return [] }
                state.live[id.rawValue] = progress
                state.count(row.id, kind: row.kind, bytes: progress.completedBytes)
                row.apply(progress)
                row = state.measured(row)
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
        case .note(let id, let text):
            post([.message(StatusMessage("#\(id.rawValue): \(text)"))])
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
                state.taskMeters.removeAll()
                state.counted.removeAll()
            }
            answer(reading: true)
            post([.message(StatusMessage(message, isError: true))])
        }
    }
}
