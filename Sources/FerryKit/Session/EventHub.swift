import Synchronization

/// `EventHub` fans events out to every subscriber's `AsyncStream` (a session's ``TaskEvent``s,
/// the queue's scheduler events). Thread-safe.
public final class EventHub<Event: Sendable>: Sendable {
    private let subscribers = Mutex<[Int: AsyncStream<Event>.Continuation]>([:])
    private let nextID = Atomic<Int>(0)

    public init() {}

    /// `subscribe()` returns a stream of every event published from now on; it ends at ``finish()``.
    public func subscribe() -> AsyncStream<Event> {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    /// `publish(_:)` hands `event` to every subscriber.
    public func publish(_ event: Event) {
        let targets = subscribers.withLock { Array($0.values) }
        for continuation in targets {
            continuation.yield(event)
        }
    }

    /// `finish()` ends every stream once the events already published have been delivered.
    public func finish() {
        let targets = subscribers.withLock { subscribers in
            defer { subscribers.removeAll() }
            return Array(subscribers.values)
        }
        for continuation in targets {
            continuation.finish()
        }
    }
}
