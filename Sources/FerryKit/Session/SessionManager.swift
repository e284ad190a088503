import Foundation
import Synchronization

/// `SessionManager` creates transfer tasks and runs them on its engine (the AFURLSessionManager analogue).
///
/// Each task gets its own ``TaskDelegate``, kept in a lock-protected table keyed by task
/// identifier until the task ends. Events about every task are published as ``TaskEvent``s
/// through ``events()``. Safe to use from any thread.
public final class SessionManager: Sendable {
    /// The defaults every task starts from. Its limits on transfers at once are those the
    /// session was made with; ``setLimits(maximumActiveTransfers:maximumActiveTransfersPerHost:)``
    /// may have changed them since (``maximumActiveTransfers`` reads the current ones).
    public let configuration: SessionConfiguration
    let core: SessionCore

    public init(configuration: SessionConfiguration = .default) {
        self.configuration = configuration
        core = SessionCore(configuration: configuration)
    }

    deinit {
        core.invalidate()
    }

    /// A task that keeps the response body in memory.
    public func dataTask(with request: Request) -> TransferTask {
        core.makeTask(kind: request.body == nil ? .data : .upload, request: request, delegate: DataTaskDelegate())
    }

    /// A task that writes the response body to `destination` (through `NAME.part`).
    public func downloadTask(with request: Request, to destination: DownloadDestination) -> TransferTask {
        core.makeTask(kind: .download, request: request, delegate: DownloadTaskDelegate(destination: destination))
    }

    /// A task that sends `body` and keeps the response body in memory.
    public func uploadTask(with request: Request, body: RequestBody) -> TransferTask {
        var request = request
        request.body = body
        if request.method == .get { request.method = .put }
        return core.makeTask(kind: .upload, request: request, delegate: DataTaskDelegate())
    }

    /// A task that sends `body` and passes the reply to `sink` as it arrives, keeping at most
    /// `limit` bytes of it in memory (``ReplyTaskDelegate``): for replies of any size.
    public func uploadTask(with request: Request, body: RequestBody, keepingReplyBytes limit: Int, sink: (any ReplySink)? = nil) -> TransferTask {
        var request = request
        request.body = body
        if request.method == .get { request.method = .put }
        return core.makeTask(kind: .upload, request: request, delegate: ReplyTaskDelegate(keeping: limit, sink: sink))
    }

    /// A task run by a delegate of the caller's own (the queue's checkpointing downloads, for example).
    public func task(kind: TransferTask.Kind, request: Request, delegate: any TaskDelegate) -> TransferTask {
        core.makeTask(kind: kind, request: request, delegate: delegate)
    }

    /// The delegate of a task that has not ended yet.
    public func delegate(for taskID: Int) -> (any TaskDelegate)? {
        core.delegates.withLock { $0[taskID] }
    }

    /// A stream of every event published from now on; it ends when the session is invalidated.
    public func events() -> AsyncStream<TaskEvent> {
        core.hub.subscribe()
    }

    /// Calls `handler` with every event published from now on, on the thread that publishes
    /// it (the engine's for progress: it must be quick and must not block), until
    /// ``removeObserver(_:)`` with the returned token. Cheaper than ``events()`` for a
    /// forwarder: no task is woken per event.
    public func observe(_ handler: @escaping @Sendable (TaskEvent) -> Void) -> Int {
        core.hub.observe(handler)
    }

    /// Stops the observer ``observe(_:)`` returned `token` for.
    public func removeObserver(_ token: Int) {
        core.hub.removeObserver(token)
    }

    /// The most transfers the session runs at once now; `nil` is no limit.
    public var maximumActiveTransfers: Int? { core.limits.withLock { $0.maximumActiveTransfers } }

    /// The most transfers the session runs at once to one host now; `nil` is no limit.
    public var maximumActiveTransfersPerHost: Int? { core.limits.withLock { $0.maximumActiveTransfersPerHost } }

    /// Changes the limits on transfers at once (`nil` is no limit) while the session runs, and
    /// returns once its engine applies them: transfers held back that fit now start at once;
    /// running ones are never stopped, and above a lowered limit none starts until enough
    /// have ended.
    public func setLimits(maximumActiveTransfers: Int?, maximumActiveTransfersPerHost: Int?) async {
        let limits = AdmissionLimits(maximumActiveTransfers: maximumActiveTransfers,
                                     maximumActiveTransfersPerHost: maximumActiveTransfersPerHost)
        await withCheckedContinuation { (applied: CheckedContinuation<Void, Never>) in
            // Under the lock: the engine applies changes in the order `limits` records them.
            core.limits.withLock { current in
                current = limits
                core.engine.submit(.setLimits(limits, done: { applied.resume() }))
            }
        }
    }

    /// The speed budgets shared by the session's transfers now.
    public var overallLimits: OverallLimits { core.overall.withLock { $0 } }

    /// Changes the speed budgets shared by all transfers (`nil` in either direction: no
    /// limit) while the session runs, and returns once its engine applies them: running
    /// transfers get their new shares at once. Safe from any thread.
    public func setOverallLimits(_ limits: OverallLimits) async {
        await withCheckedContinuation { (applied: CheckedContinuation<Void, Never>) in
            // Under the lock: the engine applies changes in the order `overall` records them.
            core.overall.withLock { current in
                current = limits
                core.engine.submit(.setOverallLimits(limits, done: { applied.resume() }))
            }
        }
    }

    /// Changes the speed budgets like ``setOverallLimits(_:)`` without waiting for the engine
    /// (it applies changes in the order they were made).
    public func requestOverallLimits(_ limits: OverallLimits) {
        core.overall.withLock { current in
            current = limits
            core.engine.submit(.setOverallLimits(limits, done: {}))
        }
    }

    /// Changes the receive speed cap of the running task `taskID` (`nil`: none, the session's
    /// budget still applies); a task that is not running is not affected (its next attempt
    /// takes the cap of its request).
    public func setReceiveSpeedCap(_ cap: Int64?, forTask taskID: Int) {
        core.engine.submit(.setReceiveCap(taskID, cap.flatMap { $0 > 0 ? $0 : nil }))
    }

    /// Cancels every task, stops the engine thread and ends the event streams.
    public func invalidate() {
        core.invalidate()
    }
}

/// `SessionCore` is the part of a session its tasks hold on to: engine, events and delegates.
final class SessionCore: Sendable {
    let configuration: SessionConfiguration
    let engine: Engine
    /// `limits` are the limits on transfers at once last given to the engine.
    let limits: Mutex<AdmissionLimits>
    /// `overall` are the speed budgets last given to the engine.
    let overall: Mutex<OverallLimits>
    let hub = EventHub<TaskEvent>()
    let delegates = Mutex<[Int: any TaskDelegate]>([:])
    private let nextTaskID = Atomic<Int>(0)

    init(configuration: SessionConfiguration) {
        self.configuration = configuration
        let limits = AdmissionLimits(maximumActiveTransfers: configuration.maximumActiveTransfers,
                                     maximumActiveTransfersPerHost: configuration.maximumActiveTransfersPerHost)
        self.limits = Mutex(limits)
        overall = Mutex(configuration.overallLimits)
        engine = Engine(limits: limits, overall: configuration.overallLimits)
    }

    func makeTask(kind: TransferTask.Kind, request: Request, delegate: any TaskDelegate) -> TransferTask {
        let id = nextTaskID.wrappingAdd(1, ordering: .relaxed).newValue
        // A delegate that drives its own transfers (a segmented download) runs the task itself.
        let task = TransferTask(id: id, kind: kind, request: request, session: self, driver: delegate as? any TransferDriver)
        delegates.withLock { $0[id] = delegate }
        return task
    }

    /// Hands a task that was just resumed for the first time to the engine.
    func start(_ task: TransferTask) {
        guard let delegate = delegates.withLock({ $0[task.id] }) else { return }
        engine.submit(.add(task, delegate, configuration))
    }

    func taskEnded(_ id: Int) {
        _ = delegates.withLock { $0.removeValue(forKey: id) }
    }

    func invalidate() {
        engine.shutdown()
        hub.finish()
    }
}
