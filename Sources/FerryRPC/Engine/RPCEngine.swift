import FerryKit
import FerryQueue
import Foundation
import Synchronization

/// `RPCEngine` is what the RPC methods act on: the journal, the `QueueRunner` that runs it
/// (a running engine's `Scheduler`, or a `JournalRunner` in a short command's process), the
/// live progress it publishes and the engine's settings.
///
/// Methods change rows through the journal and then tell the runner
/// (`journalDidChange()`), or call the runner directly where it has the action (resume,
/// retry, remove), so a change is acted on at once, not at the next poll.
public final class RPCEngine: Sendable {
    /// `journal` is the queue of the state directory.
    public let journal: Journal
    /// `runner` runs the queue: the engine's scheduler, or the journal alone.
    public let runner: any QueueRunner
    /// `live` holds the running tasks' latest progress.
    public let live: LiveProgress
    /// `defaultDirectory` is where a download without a `dir` option is saved.
    public let defaultDirectory: String
    /// `maximumConcurrent` is the daemon's `--max-concurrent`.
    public let maximumConcurrent: Int
    /// `runsWholeQueue` is false for an engine that runs only its command's own tasks
    /// (`ferry get`); `ferry.engine` says which.
    public let runsWholeQueue: Bool
    /// `command` names the command hosting this engine (`daemon`, `resume`, `get`), as
    /// `ferry.engine` says it, so `ferry stop` words what it stopped.
    public let command: String
    /// `activity` numbers the events a front end follows (`ferry.activity`).
    public let activity = ActivityFeed()
    /// `notifications` carries aria2's notifications (JSON text) to WebSocket clients.
    public let notifications = EventHub<String>()
    /// `options` keeps what aria2's option calls set that the journal does not hold.
    public let options = OptionMemory()
    /// `sessionID` is a random id for this run of the daemon (`aria2.getSessionInfo`).
    public let sessionID: String
    /// `digest` keeps the counts by state and the running tasks' ids between queue changes.
    let digest: QueueDigest
    /// `statusPages` keeps the answers to pages of waiting and stopped tasks until they change.
    let statusPages = StatusPages()
    /// `webSocketClients` counts the WebSocket connections open now.
    let webSocketClients = Atomic<Int>(0)
    private let shutdown: @Sendable () -> Void

    /// `init(journal:runner:defaultDirectory:maximumConcurrent:runsWholeQueue:command:onShutdown:)`
    /// makes the engine (of the whole queue, hosted by `ferry daemon`, by default) and starts following the runner's
    /// progress; `onShutdown` is called (once the
    /// answer is on its way) by `aria2.shutdown` and `aria2.forceShutdown`.
    public init(
        journal: Journal, runner: any QueueRunner, defaultDirectory: String, maximumConcurrent: Int,
        runsWholeQueue: Bool = true, command: String = "daemon", onShutdown: @escaping @Sendable () -> Void
    ) {
        self.journal = journal
        self.runner = runner
        self.defaultDirectory = defaultDirectory
        self.maximumConcurrent = maximumConcurrent
        self.runsWholeQueue = runsWholeQueue
        self.command = command
        self.shutdown = onShutdown
        digest = QueueDigest(journal: journal)
        live = LiveProgress()
        live.follow(runner)
        activity.follow(runner)
        statusPages.follow(runner)
        let notifications = self.notifications
        let started = StartedTransfers()
        runner.observe { event in
            guard started.admits(event), let message = Aria2Notification.message(for: event) else { return }
            notifications.publish(message)
        }
        var generator = SystemRandomNumberGenerator()
        sessionID = (0..<20).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }

    /// `requestShutdown()` asks the daemon to stop a moment later, so the answer is sent first.
    func requestShutdown() {
        let shutdown = self.shutdown
        Task {
            try? await Task.sleep(for: .milliseconds(100))
            shutdown()
        }
    }

    /// `journalCall(_:)` runs a journal call and turns its error into an RPC error.
    func journalCall<T>(_ body: () throws(QueueError) -> T) throws(RPCError) -> T {
        do {
            return try body()
        } catch {
            throw RPCError.failed("journal: \(error.description)")
        }
    }

    /// `runnerCall(_:)` runs an action of the runner and turns its journal error into an RPC error.
    func runnerCall<T>(_ body: () async throws(QueueError) -> T) async throws(RPCError) -> T {
        do {
            return try await body()
        } catch {
            throw RPCError.failed("journal: \(error.description)")
        }
    }

    /// `records(in:)` is every task in `states`, in queue order.
    func records(in states: Set<TaskState>) throws(RPCError) -> [TaskRecord] {
        var records: [TaskRecord] = []
        do {
            try journal.forEachTask(in: states) { records.append($0) }
        } catch {
            throw RPCError.failed("journal: \((error as? QueueError)?.description ?? "\(error)")")
        }
        return records
    }

    /// `counts()` is the number of tasks in each state (every state is a key).
    func counts() throws(RPCError) -> [TaskState: Int] {
        try journalCall { () throws(QueueError) in try digest.counts() }
    }

    /// `runningRecords()` is every running task, in queue order.
    func runningRecords() throws(RPCError) -> [TaskRecord] {
        try journalCall { () throws(QueueError) in try digest.running() }
    }

    /// `record(_:)` is the task of a GID, or the error aria2 gives for an unknown one.
    func record(_ id: TaskID) throws(RPCError) -> TaskRecord {
        guard let record = try journalCall({ () throws(QueueError) in try journal.task(id) }) else {
            throw RPCError.notFound(id)
        }
        return record
    }

    /// `attachedPollWindow` is how recently a front end must have polled `ferry.activity` to
    /// count as attached (it polls four times a second).
    static let attachedPollWindow: Duration = .seconds(3)

    /// `isIdle()` is true when nothing is queued or running (paused tasks wait for a client),
    /// no WebSocket client is attached and no front end (the terminal UI) polled
    /// `ferry.activity` lately: what `ferry daemon --exit-when-idle` waits for. A journal that
    /// cannot be read counts as busy.
    public func isIdle() -> Bool {
        if let lastPoll = activity.lastPoll, ContinuousClock.now - lastPoll < Self.attachedPollWindow { return false }
        // Asked every second: a running transfer is in `live` from its start to its end, and
        // a queued task is found through the queue's index, so a large queue of finished
        // tasks is never counted.
        guard webSocketClients.load(ordering: .relaxed) == 0, live.all().isEmpty,
              let queued = try? journal.nextRunnable(limit: 1) else { return false }
        return queued.isEmpty
    }
}
