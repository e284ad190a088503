import Dispatch
import FerryKit
import FerryQueue
import Synchronization

/// `QueueController` is the `TaskController` over the persistent queue: it lists the
/// journal's tasks in the front end and carries out the user's commands as journal writes
/// (or, for running tasks, through the in-process `TransferActivity`).
///
/// All journal work happens on the controller's own serial worker queue, never on the
/// front end's thread. At attach it posts a `replaceTasks` snapshot (read a page at a time);
/// afterwards it posts only the rows that changed. Changes made by other processes (`ferry
/// add` from another shell) are noticed by reading `Journal.revision()` once a second, and
/// only between `attach(_:)` and `close()`; with nothing changing, the front end is never
/// woken. When the revision moved, each task's time of last change (`updated_at`) is compared
/// with the one its row was made from, and only the tasks that changed are read again: with
/// 100,000 tasks a refresh costs two integers per task, not a whole task each.
///
/// Thread rules: `attach(_:)` and `perform(_:)` may be called from any thread; all mutable
/// state sits in one `Mutex`.
public final class QueueController: TaskController {
    /// `pollInterval` is how often the journal's revision is read while the front end is open.
    public static let pollInterval = DispatchTimeInterval.seconds(1)

    /// `Known` is what the controller keeps of a task it posted: when its record last changed
    /// (`TaskRecord.updateStamp`), its state (for "pause all" and "resume all") and, for a
    /// download not done or cancelled, its file (a second download to it is refused). The
    /// rows themselves, with their URLs, paths and validators, live in the front end only.
    struct Known {
        var stamp: Int64
        var state: TaskState
        var activeDestination: String?

        init(_ row: TaskRow, stamp: Int64) {
            self.stamp = stamp
            state = row.state
            let active = row.kind == .download && row.state != .done && row.state != .cancelled
            activeDestination = active ? row.destination : nil
        }
    }

    /// `State` is everything that changes, behind one lock.
    struct State {
        var inbox: EventInbox?
        /// Every posted task, by id.
        var known: [TaskRow.ID: Known] = [:]
        /// The rows last posted of the running tasks, which live progress updates.
        var running: [TaskRow.ID: TaskRow] = [:]
        /// The live progress of running tasks, from the activity.
        var live: [TaskRow.ID: TransferProgress] = [:]
        /// The tasks whose transfer the activity reported started and not yet ended. A task the
        /// journal says is running but that is not here waits in the engine for a free place
        /// (the scheduler hands tasks over ahead of need): its row shows it queued, so the
        /// table never shows more running than the limits allow.
        var started: Set<TaskRow.ID> = []
        /// The journal revision the posted rows reflect; `nil` before the first snapshot.
        var revision: Int64?
        var listener: Task<Void, Never>?
        var isClosed = false
    }

    let journal: Journal
    let activity: (any TransferActivity)?
    /// The activity's events, subscribed to at `init`: none is missed before `attach(_:)`
    /// (the engine may start before the front end attaches), and they wait until then.
    private let activityEvents: AsyncStream<ActivityEvent>?
    let worker = DispatchQueue(label: "ferry.tui.queue-controller")
    let state = Mutex(State())

    /// `init(journal:activity:)` makes a controller over `journal`; `activity` is the
    /// in-process engine, `nil` by default (journal-only: nothing transfers).
    public init(journal: Journal, activity: (any TransferActivity)? = nil) {
        self.journal = journal
        self.activity = activity
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
        worker.async { self.refresh() }
        schedulePoll()
    }

    /// `perform(_:)` queues the command on the worker and returns at once.
    public func perform(_ command: TUICommand) {
        if case .quit = command {
            stopWatching()
            return
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

    /// `pollRevision()` refreshes the rows when the journal's revision moved and tells the
    /// activity, so the engine acts on other processes' changes without a poll of its own.
    private func pollRevision() {
        if refreshIfChanged() { activity?.journalDidChange() }
    }

    /// `refreshIfChanged()` refreshes the rows when the journal's revision differs from the
    /// one they reflect, and returns whether it did. Worker only.
    @discardableResult
    private func refreshIfChanged() -> Bool {
        do {
            let revision = try journal.revision()
            guard revision != state.withLock({ $0.revision }) else { return false }
        } catch {
            report(error)
            return false
        }
        refresh()
        return true
    }

    /// `refreshPageSize` is how many tasks the first snapshot reads, and posts, at a time.
    static let refreshPageSize = 1_000

    /// `refresh()` posts what changed in the queue since the last post (the complete list the
    /// first time). Worker only.
    func refresh() {
        if state.withLock({ $0.revision == nil }) {
            loadSnapshot()
        } else {
            refreshChanged()
        }
    }

    /// `loadSnapshot()` reads every task a page at a time and posts each page as it is read:
    /// `replaceTasks` with the first, `updateTasks` with the others.
    private func loadSnapshot() {
        var page: [(TaskRow, Int64)] = []
        page.reserveCapacity(Self.refreshPageSize)
        var first = true
        func flush() {
            let rows = state.withLock { state -> [TaskRow] in
                if first { state.known.removeAll() }
                return page.map { row, stamp in remember(row, stamp: stamp, in: &state) }
            }
            post([first ? .replaceTasks(rows) : .updateTasks(rows)])
            first = false
            page.removeAll(keepingCapacity: true)
        }
        do {
            let revision = try journal.revision()
            try journal.forEachTask(pageSize: Self.refreshPageSize) { record in
                page.append((TaskRow(record: record), record.updateStamp))
                if page.count == Self.refreshPageSize { flush() }
            }
            if first || !page.isEmpty { flush() }
            state.withLock { state in
                state.revision = revision
                state.live = state.live.filter { state.running[$0.key] != nil }
            }
        } catch let error as QueueError {
            report(error)
        } catch {
            // Only the journal's reads throw (`QueueError`); the page handler does not.
            post([.message(StatusMessage(String(describing: error), isError: true))])
        }
    }

    /// `refreshChanged()` reads again the tasks whose time of last change differs from the
    /// one their row was made from (and the new ones), drops the removed ones, and posts that.
    private func refreshChanged() {
        let revision: Int64
        let records: [TaskRecord]
        let removed: [TaskRow.ID]
        do {
            revision = try journal.revision()
            let known = state.withLock { $0.known.mapValues(\.stamp) }
            var changed: [TaskID] = []
            var seen = 0
            try journal.forEachUpdateStamp { id, stamp in
                guard let old = known[id.rawValue] else {
                    changed.append(id)
                    return
                }
                seen += 1
                if old != stamp { changed.append(id) }
            }
            if seen < known.count {
                var gone = Set(known.keys)
                try journal.forEachUpdateStamp { id, _ in gone.remove(id.rawValue) }
                removed = gone.sorted()
            } else {
                removed = []
            }
            records = try journal.tasks(ids: changed)
        } catch {
            report(error)
            return
        }
        let events = state.withLock { state -> [TUIEvent] in
            let changed = records.map { record in
                remember(TaskRow(record: record, progress: state.live[record.id.rawValue]), stamp: record.updateStamp, in: &state)
            }
            let gone = removed.filter { forget($0, in: &state) }
            state.revision = revision
            var events: [TUIEvent] = []
            if !changed.isEmpty { events.append(.updateTasks(changed)) }
            if !gone.isEmpty { events.append(.removeTasks(gone)) }
            return events
        }
        post(events)
    }

    /// `refresh(_:)` re-reads one task and posts it (or its removal). Worker only.
    func refresh(_ id: TaskID) {
        let record: TaskRecord?
        do {
            record = try journal.task(id)
        } catch {
            report(error)
            return
        }
        let events = state.withLock { state -> [TUIEvent] in
            guard let record else {
                return forget(id.rawValue, in: &state) ? [.removeTasks([id.rawValue])] : []
            }
            let row = TaskRow(record: record, progress: state.live[id.rawValue])
            return [.updateTasks([remember(row, stamp: record.updateStamp, in: &state)])]
        }
        post(events)
    }

    /// `remember(_:stamp:in:)` notes a row about to be posted and returns it; live progress
    /// is kept for running tasks only (a paused row shows no speed).
    private func remember(_ row: TaskRow, stamp: Int64, in state: inout State) -> TaskRow {
        var row = row
        if row.state == .running, activity != nil, !state.started.contains(row.id) { row.state = .queued }
        state.known[row.id] = Known(row, stamp: stamp)
        if row.state == .running {
            state.running[row.id] = row
        } else {
            state.running[row.id] = nil
            state.live[row.id] = nil
        }
        return row
    }

    /// `forget(_:in:)` drops a removed task; true when it had been posted.
    private func forget(_ id: TaskRow.ID, in state: inout State) -> Bool {
        state.started.remove(id)
        state.running[id] = nil
        state.live[id] = nil
        return state.known.removeValue(forKey: id) != nil
    }

    private func handle(_ event: ActivityEvent) {
        dispatchPrecondition(condition: .onQueue(worker))
        switch event {
        case .started(let id):
            _ = state.withLock { $0.started.insert(id.rawValue) }
            refresh(id)
        case .progress(let id, let progress):
            let events = state.withLock { state -> [TUIEvent] in
                guard var row = state.running[id.rawValue] else { return [] }
                state.live[id.rawValue] = progress
                row.apply(progress)
                guard row != state.running[id.rawValue] else { return [] }
                state.running[id.rawValue] = row
                return [.updateTasks([row])]
            }
            post(events)
        case .ended(let id, _, _):
            state.withLock { state in
                state.live[id.rawValue] = nil
                state.started.remove(id.rawValue)
            }
            refresh(id)
        case .journalChanged:
            // Every change to the queue moves the revision; progress arrives as events.
            refreshIfChanged()
        }
    }
}
