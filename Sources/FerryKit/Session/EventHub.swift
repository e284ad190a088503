import Synchronization

/// `EventHub` fans ``TaskEvent``s out to every subscriber's `AsyncStream`.
final class EventHub: Sendable {
    private let subscribers = Mutex<[Int: AsyncStream<TaskEvent>.Continuation]>([:])
    private let nextID = Atomic<Int>(0)

    /// A new stream of every event published from now on; it ends when the session is invalidated.
    func subscribe() -> AsyncStream<TaskEvent> {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<TaskEvent>.makeStream(bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    func publish(_ event: TaskEvent) {
        let targets = subscribers.withLock { Array($0.values) }
        for continuation in targets {
            continuation.yield(event)
        }
    }

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
