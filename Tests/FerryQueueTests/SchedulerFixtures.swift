import FerryKit
import FerryQueue
import FerryTestSupport
import Foundation
import Synchronization

/// `EventRecorder` keeps every event of a scheduler and waits for conditions on them.
final class EventRecorder: Sendable {
    private struct Waiter {
        let condition: @Sendable ([SchedulerEvent]) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var events: [SchedulerEvent] = []
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())
    private let reader = Mutex<Task<Void, Never>?>(nil)

    init(_ stream: AsyncStream<SchedulerEvent>) {
        let task = Task { [weak self] in
            for await event in stream {
                self?.append(event)
            }
        }
        reader.withLock { $0 = task }
    }

    deinit {
        reader.withLock { $0?.cancel() }
    }

    /// `all` is every event recorded so far, in order.
    var all: [SchedulerEvent] { state.withLock { $0.events } }

    private func append(_ event: SchedulerEvent) {
        let ready = state.withLock { state -> [Waiter] in
            state.events.append(event)
            let events = state.events
            let done = state.waiters.filter { $0.value.condition(events) }
            for key in done.keys { state.waiters.removeValue(forKey: key) }
            return Array(done.values)
        }
        for waiter in ready { waiter.continuation.resume(returning: true) }
    }

    /// `wait(timeout:until:)` returns true once `condition` holds for the recorded events,
    /// false after `timeout`.
    func wait(timeout: Duration, until condition: @escaping @Sendable ([SchedulerEvent]) -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            let key = state.withLock { state -> Int? in
                if condition(state.events) { return nil }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = Waiter(condition: condition, continuation: continuation)
                return state.nextWaiter
            }
            guard let key else {
                continuation.resume(returning: true)
                return
            }
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                let expired = self?.state.withLock { $0.waiters.removeValue(forKey: key) }
                expired?.continuation.resume(returning: false)
            }
        }
    }
}

/// `SchedulerEvents` reads facts out of recorded events.
enum SchedulerEvents {
    /// `maximumConcurrent(_:)` is the most tasks transferring at once: between `started` and
    /// `transferred` (or `ended`, for an attempt stopped before its network part was over).
    static func maximumConcurrent(_ events: [SchedulerEvent]) -> Int {
        var running = Set<TaskID>()
        var most = 0
        for event in events {
            switch event {
            case .started(let id): running.insert(id); most = max(most, running.count)
            case .transferred(let id): running.remove(id)
            case .ended(let id, _, _, _): running.remove(id)
            default: break
            }
        }
        return most
    }

    /// `startOrder(_:)` is the ids in the order they first started.
    static func startOrder(_ events: [SchedulerEvent]) -> [TaskID] {
        var seen = Set<TaskID>()
        return events.compactMap { event in
            guard case .started(let id) = event, seen.insert(id).inserted else { return nil }
            return id
        }
    }

    /// `ends(_:of:)` is every `(state, error)` the task ended an attempt with, in order.
    static func ends(_ events: [SchedulerEvent], of wanted: TaskID) -> [(TaskState, String?)] {
        events.compactMap { event in
            guard case .ended(let id, let state, let error, _) = event, id == wanted else { return nil }
            return (state, error)
        }
    }

    /// `count(_:state:)` counts `ended` events with `state`.
    static func count(_ events: [SchedulerEvent], state wanted: TaskState) -> Int {
        events.filter { event in
            if case .ended(_, let state, _, _) = event { return state == wanted }
            return false
        }.count
    }
}

/// `FailingDownloadDelegateFactory` makes delegates whose writes fail with a full disk,
/// the way `PartialFile` reports `ENOSPC`, to test the scheduler's reaction.
struct FailingDownloadDelegateFactory: DownloadDelegateFactory {
    /// `failingName` is the file name whose writes fail; other downloads work.
    let failingName: String

    func makeDelegate(for record: TaskRecord, destination: DownloadDestination) -> any TaskDelegate {
        let inner = DownloadTaskDelegate(destination: destination)
        guard destination.fileName == failingName else { return inner }
        let path = destination.partialFilePath
        return InterceptingDelegate(inner: inner, bytes: { () throws(FerryError) in
            throw .file(.from(errno: ENOSPC, path: path, operation: "write"))
        })
    }
}

/// `GatedDownloadDelegateFactory` makes delegates whose completion (the sync and final name)
/// waits until `gate` opens, to watch what the scheduler does while files are finishing.
struct GatedDownloadDelegateFactory: DownloadDelegateFactory {
    let gate: Gate

    func makeDelegate(for record: TaskRecord, destination: DownloadDestination) -> any TaskDelegate {
        InterceptingDelegate(inner: DownloadTaskDelegate(destination: destination), completion: gate.pass)
    }
}

/// `Gate` blocks callers of `pass()` until `open()` (for at most 60 s, so a broken test ends;
/// longer than any wait of a test on a loaded machine, so the gate never opens by itself first).
final class Gate: Sendable {
    private let opened = DispatchSemaphore(value: 0)

    func open() {
        // Enough for every waiter of a test; a semaphore left positive harms nothing.
        for _ in 0..<1_000 { opened.signal() }
    }

    @Sendable func pass() {
        _ = opened.wait(timeout: .now() + 60)
        opened.signal()
    }
}

/// `InterceptingDelegate` is a `DownloadTaskDelegate` with a hook before each body chunk
/// (which may fail it) and one before its completion. Used on the engine and completion
/// threads, one at a time, as every delegate.
final class InterceptingDelegate: TaskDelegate, @unchecked Sendable {
    private let inner: DownloadTaskDelegate
    private let bytes: (@Sendable () throws(FerryError) -> Void)?
    private let completion: (@Sendable () -> Void)?

    init(inner: DownloadTaskDelegate, bytes: (@Sendable () throws(FerryError) -> Void)? = nil,
         completion: (@Sendable () -> Void)? = nil) {
        self.inner = inner
        self.bytes = bytes
        self.completion = completion
    }

    var receivedBytes: Int64 { inner.receivedBytes }
    var expectedReceivedBytes: Int64? { inner.expectedReceivedBytes }

    func task(_ task: TransferTask, didReceive response: HTTPResponse) throws(FerryError) {
        try inner.task(task, didReceive: response)
    }

    func task(_ task: TransferTask, didReceive chunk: UnsafeRawBufferPointer) throws(FerryError) {
        try bytes?()
        try inner.task(task, didReceive: chunk)
    }

    func task(_ task: TransferTask, didCompleteWith result: Result<HTTPResponse, FerryError>, bytesSent: Int64) -> Result<TransferResult, FerryError> {
        completion?()
        return inner.task(task, didCompleteWith: result, bytesSent: bytesSent)
    }
}

/// `Eventually` waits for a condition that no event announces (a journal row the scheduler
/// writes on its own thread): it checks every 20 ms until the condition holds or `timeout`
/// passes.
enum Eventually {
    /// `holds(timeout:_:)` is true once `condition` holds, false when `timeout` passed first.
    static func holds(timeout: Duration, _ condition: () throws -> Bool) async rethrows -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if try condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return try condition()
    }
}
