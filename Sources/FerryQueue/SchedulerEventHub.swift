import Synchronization

/// `SchedulerEventHub` fans `SchedulerEvent`s out to every subscriber's `AsyncStream`.
/// Thread-safe.
final class SchedulerEventHub: Sendable {
    private let subscribers = Mutex<[Int: AsyncStream<SchedulerEvent>.Continuation]>([:])
    private let nextID = Atomic<Int>(0)

    /// `subscribe()` returns a stream of every event published from now on.
    func subscribe() -> AsyncStream<SchedulerEvent> {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<SchedulerEvent>.makeStream(bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    /// `publish(_:)` hands `event` to every subscriber.
    func publish(_ event: SchedulerEvent) {
        let targets = subscribers.withLock { Array($0.values) }
        for continuation in targets {
            continuation.yield(event)
        }
    }

    /// `finish()` ends every stream.
    func finish() {
        let targets = subscribers.withLock { subscribers in
            defer { subscribers.removeAll() }
            return Array(subscribers.values)
        }
        for continuation in targets {
            continuation.finish()
        }
    }
}
