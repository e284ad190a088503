import Dispatch
import FerryKit
import FerryQueue
import Synchronization

/// `QueueController` is the `TaskController` over the persistent queue: it lists the
/// journal's tasks in the front end and carries out the user's commands as journal writes
/// (or, for running tasks, through the in-process `TransferActivity`).
///
/// All journal work happens on the controller's own serial worker queue, never on the
/// front end's thread. At attach it posts a `replaceTasks` snapshot; afterwards it posts
/// only the rows that changed. Changes made by other processes (`ferry add` from another
/// shell) are noticed by reading `Journal.revision()` once a second, and only between
/// `attach(_:)` and `close()`; with nothing changing, the front end is never woken.
///
/// Thread rules: `attach(_:)` and `perform(_:)` may be called from any thread; all mutable
/// state sits in one `Mutex`.
public final class QueueController: TaskController {
    /// `pollInterval` is how often the journal's revision is read while the front end is open.
    public static let pollInterval = DispatchTimeInterval.seconds(1)

    /// `State` is everything that changes, behind one lock.
    struct State {
        var inbox: EventInbox?
        /// The rows last posted, by id.
        var rows: [TaskRow.ID: TaskRow] = [:]
        /// The live progress of running tasks, from the activity.
        var live: [TaskRow.ID: TransferProgress] = [:]
        /// The journal revision the posted rows reflect; `nil` before the first snapshot.
        var revision: Int64?
        var listener: Task<Void, Never>?
        var isClosed = false
    }

    let journal: Journal
    let activity: (any TransferActivity)?
    let worker = DispatchQueue(label: "ferry.tui.queue-controller")
    let state = Mutex(State())

    /// `init(journal:activity:)` makes a controller over `journal`; `activity` is the
    /// in-process engine, `nil` by default (journal-only: nothing transfers).
    public init(journal: Journal, activity: (any TransferActivity)? = nil) {
        self.journal = journal
        self.activity = activity
    }

    /// `attach(_:)` keeps the inbox, posts the snapshot, starts the revision poll and
    /// listens to the activity's events.
    public func attach(_ inbox: EventInbox) {
        let stream = activity?.events()
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

    /// `refresh()` reads the whole queue and posts what changed since the last post (the
    /// complete list the first time). Worker only.
    func refresh() {
        let revision: Int64
        let records: [TaskRecord]
        do {
            revision = try journal.revision()
            records = try journal.tasks(limit: Int.max)
        } catch {
            report(error)
            return
        }
        let events = state.withLock { state -> [TUIEvent] in
            var fresh: [TaskRow.ID: TaskRow] = [:]
            fresh.reserveCapacity(records.count)
            var ordered: [TaskRow] = []
            ordered.reserveCapacity(records.count)
            for (rank, record) in records.enumerated() {
                // Live progress belongs to running tasks only: a paused row shows no speed.
                let live = record.state == .running ? state.live[record.id.rawValue] : nil
                let row = TaskRow(record: record, rank: rank, progress: live)
                fresh[row.id] = row
                ordered.append(row)
            }
            let first = state.revision == nil
            let old = state.rows
            state.rows = fresh
            state.revision = revision
            state.live = state.live.filter { fresh[$0.key]?.state == .running }
            if first { return [.replaceTasks(ordered)] }
            let changed = ordered.filter { old[$0.id] != $0 }
            let removed = old.keys.filter { fresh[$0] == nil }.sorted()
            var events: [TUIEvent] = []
            if !changed.isEmpty { events.append(.updateTasks(changed)) }
            if !removed.isEmpty { events.append(.removeTasks(removed)) }
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
                state.live[id.rawValue] = nil
                return state.rows.removeValue(forKey: id.rawValue) == nil ? [] : [.removeTasks([id.rawValue])]
            }
            if record.state != .running { state.live[id.rawValue] = nil }
            // A task not seen yet goes to the end; the next full refresh ranks it.
            let rank = state.rows[id.rawValue]?.position ?? state.rows.count
            let row = TaskRow(record: record, rank: rank, progress: state.live[id.rawValue])
            guard state.rows[row.id] != row else { return [] }
            state.rows[row.id] = row
            return [.updateTasks([row])]
        }
        post(events)
    }

    private func handle(_ event: ActivityEvent) {
        dispatchPrecondition(condition: .onQueue(worker))
        switch event {
        case .started(let id):
            refresh(id)
        case .progress(let id, let progress):
            let events = state.withLock { state -> [TUIEvent] in
                guard var row = state.rows[id.rawValue], row.state == .running else { return [] }
                state.live[id.rawValue] = progress
                row.apply(progress)
                guard row != state.rows[id.rawValue] else { return [] }
                state.rows[id.rawValue] = row
                return [.updateTasks([row])]
            }
            post(events)
        case .ended(let id, _, _):
            _ = state.withLock { $0.live.removeValue(forKey: id.rawValue) }
            refresh(id)
        case .journalChanged:
            // Every change to the queue moves the revision; progress arrives as events.
            refreshIfChanged()
        }
    }
}
