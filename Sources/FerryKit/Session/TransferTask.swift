import Synchronization

/// `TransferTask` is one transfer (data, download or upload) created by a ``SessionManager``.
///
/// A task starts in ``State/created`` and does nothing until ``resume()``. Its state, progress
/// and result are safe to read from any thread; its delegate runs on the engine thread.
public final class TransferTask: Sendable, Identifiable {
    /// `State` is where a task is in its life; ``completed``, ``failed`` and ``cancelled`` are terminal.
    public enum State: String, Sendable, CaseIterable {
        case created, running, paused, cancelled, completed, failed

        /// Whether no transition leaves this state.
        public var isTerminal: Bool { self == .cancelled || self == .completed || self == .failed }

        /// Whether a task in this state may move to `next`.
        public func canTransition(to next: State) -> Bool {
            switch (self, next) {
            case (.created, .running), (.created, .cancelled): true
            case (.running, .paused), (.paused, .running): true
            case (.running, .completed), (.running, .failed), (.running, .cancelled): true
            case (.paused, .completed), (.paused, .failed), (.paused, .cancelled): true
            default: false
            }
        }
    }

    /// `Kind` is what a task does with the body.
    public enum Kind: String, Sendable {
        /// Keeps the response body in memory.
        case data
        /// Writes the response body to a file.
        case download
        /// Sends a request body and keeps the response body in memory.
        case upload
    }

    private struct Inner {
        var state = State.created
        var progress = TransferProgress()
        var response: HTTPResponse?
        var outcome: Result<TransferResult, FerryError>?
        var waiters: [CheckedContinuation<Result<TransferResult, FerryError>, Never>] = []
        var finishHandlers: [@Sendable (Result<TransferResult, FerryError>) -> Void] = []
        var transportEnded = false
        var transportHandlers: [@Sendable () -> Void] = []
        var transportStarted = false
        var startHandlers: [@Sendable () -> Void] = []
    }

    /// The task's identifier, unique within its session.
    public let id: Int
    /// What the task does with the body.
    public let kind: Kind
    /// The request as given.
    public let request: Request
    private let inner = Mutex(Inner())
    let session: SessionCore
    /// Runs the task instead of the engine when set (a segmented download drives several
    /// transfers of its own, see `SegmentedDownload`); `nil` by default.
    let driver: (any TransferDriver)?
    /// The unnamed files its engine made ahead (`UnnamedFileReserve`), for a download's file.
    var unnamedFiles: UnnamedFileReserve { session.engine.unnamedFiles }

    init(id: Int, kind: Kind, request: Request, session: SessionCore, driver: (any TransferDriver)? = nil) {
        self.id = id
        self.kind = kind
        self.request = request
        self.session = session
        self.driver = driver
    }

    /// The current state.
    public var state: State { inner.withLock { $0.state } }

    /// The latest progress snapshot.
    public var progress: TransferProgress { inner.withLock { $0.progress } }

    /// The final response once its headers arrived (also for failed tasks: a 503's Retry-After), else `nil`.
    public var response: HTTPResponse? { inner.withLock { $0.response } }

    /// Starts a created task, or continues a paused one. Does nothing in other states.
    public func resume() {
        let previous = inner.withLock { inner -> State? in
            guard inner.state == .created || inner.state == .paused else { return nil }
            let old = inner.state
            inner.state = .running
            return old
        }
        guard let previous else { return }
        session.hub.publish(.stateChanged(taskID: id, state: .running))
        if let driver {
            previous == .created ? driver.start(self) : driver.resume(self)
        } else if previous == .created {
            session.start(self)
        } else {
            session.engine.submit(.resume(id))
        }
    }

    /// Pauses a running task; the connection stays open until ``resume()`` or ``cancel()``.
    public func pause() {
        let changed = inner.withLock { inner -> Bool in
            guard inner.state == .running else { return false }
            inner.state = .paused
            return true
        }
        guard changed else { return }
        if let driver { driver.pause(self) } else { session.engine.submit(.pause(id)) }
        session.hub.publish(.stateChanged(taskID: id, state: .paused))
    }

    /// Cancels the task; it ends in ``State/cancelled`` unless it already ended.
    public func cancel() {
        let wasCreated = inner.withLock { $0.state == .created }
        if wasCreated {
            finish(.failure(.cancelled))
        } else if let driver {
            driver.cancel(self)
        } else {
            session.engine.submit(.cancel(id))
        }
    }

    /// Waits for the end of the task and returns its outcome.
    public func outcome() async -> Result<TransferResult, FerryError> {
        await withCheckedContinuation { continuation in
            let ready = inner.withLock { inner -> Result<TransferResult, FerryError>? in
                if let outcome = inner.outcome { return outcome }
                inner.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Calls `handler` with the outcome once the task ends (at once, on this thread, when it
    /// already ended), on the thread that ends it: it must be quick and must not block. For
    /// a caller following many tasks, cheaper than a waiting task per transfer.
    public func onFinish(_ handler: @escaping @Sendable (Result<TransferResult, FerryError>) -> Void) {
        let ready = inner.withLock { inner -> Result<TransferResult, FerryError>? in
            if let outcome = inner.outcome { return outcome }
            inner.finishHandlers.append(handler)
            return nil
        }
        if let ready { handler(ready) }
    }

    /// Calls `handler` once the network part of the transfer is over (the last byte arrived or
    /// the connection failed), before its delegate's `didCompleteWith` (a download's sync and
    /// final name) runs; at once when that already happened or the task already ended. On the
    /// engine thread: it must be quick and must not block. Not called for a task cancelled
    /// while it ran (its `onFinish` comes directly).
    public func onTransportEnd(_ handler: @escaping @Sendable () -> Void) {
        let now = inner.withLock { inner -> Bool in
            if inner.transportEnded || inner.state.isTerminal { return true }
            inner.transportHandlers.append(handler)
            return false
        }
        if now { handler() }
    }

    /// Whether the engine started the transfer (it may hold it back first, see ``onStart(_:)``).
    public var hasStarted: Bool { inner.withLock { $0.transportStarted } }

    /// Calls `handler` once the engine starts the transfer: at once after ``resume()``, or,
    /// when the session's limits (``SessionConfiguration/maximumActiveTransfers``) hold it
    /// back, when a place frees; at once when that already happened. On the engine thread:
    /// it must be quick and must not block. Not called for a task cancelled while it waited.
    public func onStart(_ handler: @escaping @Sendable () -> Void) {
        let now = inner.withLock { inner -> Bool in
            if inner.transportStarted { return true }
            inner.startHandlers.append(handler)
            return false
        }
        if now { handler() }
    }

    /// Waits for the end of the task: its result, or the ``FerryError`` it failed with.
    public var result: TransferResult {
        get async throws(FerryError) {
            try await outcome().get()
        }
    }

    // MARK: - Called by the engine thread

    /// Runs the `onStart` handlers (once).
    func transportDidStart() {
        let handlers = inner.withLock { inner -> [@Sendable () -> Void] in
            guard !inner.transportStarted else { return [] }
            inner.transportStarted = true
            let handlers = inner.startHandlers
            inner.startHandlers.removeAll()
            return handlers
        }
        for handler in handlers {
            handler()
        }
    }

    /// Runs the `onTransportEnd` handlers (once).
    func transportDidEnd() {
        let handlers = inner.withLock { inner -> [@Sendable () -> Void] in
            guard !inner.transportEnded else { return [] }
            inner.transportEnded = true
            defer { inner.transportHandlers.removeAll() }
            return inner.transportHandlers
        }
        for handler in handlers {
            handler()
        }
    }

    /// Remembers the final response.
    func record(response: HTTPResponse) {
        inner.withLock { $0.response = response }
    }

    /// Stores a progress snapshot and publishes it.
    func publish(progress: TransferProgress) {
        inner.withLock { $0.progress = progress }
        session.hub.publish(.progress(taskID: id, progress: progress))
    }

    /// Ends the task with `outcome`: the state becomes terminal, waiters resume, events go out.
    func finish(_ outcome: Result<TransferResult, FerryError>) {
        let next: State
        switch outcome {
        case .success: next = .completed
        case .failure(.cancelled): next = .cancelled
        case .failure: next = .failed
        }
        let ended = inner.withLock { inner -> ([CheckedContinuation<Result<TransferResult, FerryError>, Never>], [@Sendable (Result<TransferResult, FerryError>) -> Void])? in
            guard !inner.state.isTerminal, inner.state.canTransition(to: next) else { return nil }
            inner.state = next
            inner.outcome = outcome
            defer {
                inner.waiters.removeAll()
                inner.finishHandlers.removeAll()
                inner.transportHandlers.removeAll()
            }
            return (inner.waiters, inner.finishHandlers)
        }
        guard let (waiters, handlers) = ended else { return }
        session.taskEnded(id)
        session.hub.publish(.stateChanged(taskID: id, state: next))
        session.hub.publish(.completed(taskID: id, result: outcome))
        for handler in handlers {
            handler(outcome)
        }
        for waiter in waiters {
            waiter.resume(returning: outcome)
        }
    }
}
