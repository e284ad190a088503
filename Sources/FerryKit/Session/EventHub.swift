import Synchronization

/// `EventHub` fans events out to every subscriber (a session's ``TaskEvent``s, the queue's
/// scheduler events): `AsyncStream`s, and observers called on the publishing thread.
/// Thread-safe.
public final class EventHub<Event: Sendable>: Sendable {
    /// Arrays, not dictionaries: `publish` takes a copy of them for every event, and copying
    /// an array only retains its storage. `publish` is inlinable, so that a hub of another
    /// module's events is specialized there and does not look up its generic types per event:
    /// these types are visible to it, not part of the API.
    @usableFromInline
    struct Subscribers {
        @usableFromInline var streams: [Stream] = []
        @usableFromInline var observers: [Observer] = []

        @usableFromInline init() {}
    }

    @usableFromInline
    struct Stream {
        let id: Int
        @usableFromInline let continuation: AsyncStream<Event>.Continuation
        @usableFromInline let filter: (@Sendable (Event) -> Bool)?

        init(id: Int, continuation: AsyncStream<Event>.Continuation, filter: (@Sendable (Event) -> Bool)?) {
            self.id = id
            self.continuation = continuation
            self.filter = filter
        }
    }

    @usableFromInline
    struct Observer {
        let id: Int
        @usableFromInline let handler: @Sendable (Event) -> Void

        init(id: Int, handler: @escaping @Sendable (Event) -> Void) {
            self.id = id
            self.handler = handler
        }
    }

    @usableFromInline let subscribers = Mutex(Subscribers())
    private let nextID = Atomic<Int>(0)

    public init() {}

    /// `subscribe(where:)` returns a stream of every event published from now on (only those
    /// `filter` accepts, when given: a follower that ignores most events is not woken for
    /// them); it ends at ``finish()``.
    public func subscribe(where filter: (@Sendable (Event) -> Bool)? = nil) -> AsyncStream<Event> {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { $0.streams.removeAll { $0.id == id } }
        }
        subscribers.withLock { $0.streams.append(Stream(id: id, continuation: continuation, filter: filter)) }
        return stream
    }

    /// `observe(_:)` calls `handler` with every event published from now on, on the thread
    /// that publishes it (which it must not hold up), until ``removeObserver(_:)`` with the
    /// returned token.
    public func observe(_ handler: @escaping @Sendable (Event) -> Void) -> Int {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).newValue
        subscribers.withLock { $0.observers.append(Observer(id: id, handler: handler)) }
        return id
    }

    /// `removeObserver(_:)` stops the observer `observe(_:)` returned `token` for.
    public func removeObserver(_ token: Int) {
        subscribers.withLock { $0.observers.removeAll { $0.id == token } }
    }

    /// `publish(_:)` hands `event` to every observer and subscriber.
    @inlinable
    public func publish(_ event: Event) {
        let (streams, observers) = subscribers.withLock { ($0.streams, $0.observers) }
        for observer in observers {
            observer.handler(event)
        }
        for stream in streams where stream.filter?(event) ?? true {
            stream.continuation.yield(event)
        }
    }

    /// `finish()` ends every stream once the events already published have been delivered,
    /// and drops the observers.
    public func finish() {
        let targets = subscribers.withLock { subscribers in
            defer {
                subscribers.streams.removeAll()
                subscribers.observers.removeAll()
            }
            return subscribers.streams
        }
        for stream in targets {
            stream.continuation.finish()
        }
    }
}
