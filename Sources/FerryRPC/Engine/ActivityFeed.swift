import FerryQueue
import Synchronization

/// `ActivityFeed` keeps the latest scheduler events a front end needs to follow the daemon
/// (a task started, an attempt ended, the queue changed), numbered, so a client that polls
/// `ferry.activity` with the number it got last receives every event since, once.
///
/// It holds the last `capacity` events; a client further behind is told to read the queue
/// again (`reset`). Its handler runs on the publishing thread: one lock, one append.
public final class ActivityFeed: Sendable {
    /// `Event` is one event as a client receives it.
    public enum Event: Sendable, Equatable {
        case started(TaskID)
        case ended(TaskID, TaskState, error: String?)
        case journalChanged
    }

    /// `Page` is what a client gets: the events after its number, the number to ask with next,
    /// and whether it fell behind (events were dropped: read the whole queue again).
    public struct Page: Sendable {
        public let events: [Event]
        public let next: Int64
        public let reset: Bool
    }

    /// `capacity` is how many events are kept, 4,096.
    public static let capacity = 4_096

    private struct State {
        var events: [Event] = []
        /// The number of the first event in `events`.
        var first: Int64 = 0
        /// When a client last asked (the daemon counts it as attached for a while).
        var lastPoll: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    /// `init()` makes an empty feed; `follow(_:)` fills it.
    public init() {}

    /// `follow(_:)` records `runner`'s events from now on.
    public func follow(_ runner: some QueueRunner) {
        runner.observe { [self] event in
            switch event {
            case .started(let id): append(.started(id))
            case .ended(let id, let taskState, let error, _): append(.ended(id, taskState, error: error))
            case .journalChanged: append(.journalChanged)
            case .progress, .transferred, .willRetry: break
            }
        }
    }

    /// `append(_:)` adds one event, dropping the oldest beyond `capacity`.
    public func append(_ event: Event) {
        state.withLock { state in
            state.events.append(event)
            if state.events.count > Self.capacity {
                let dropped = state.events.count - Self.capacity / 2
                state.events.removeFirst(dropped)
                state.first += Int64(dropped)
            }
        }
    }

    /// `page(since:)` is every event numbered `since` or later; `nil` asks only for the
    /// current number (a client attaching reads the queue itself). A number the feed no
    /// longer holds, or never gave, is a `reset`.
    public func page(since: Int64?) -> Page {
        state.withLock { state in
            state.lastPoll = .now
            let end = state.first + Int64(state.events.count)
            guard let since, since <= end else { return Page(events: [], next: end, reset: since != nil) }
            guard since >= state.first else { return Page(events: [], next: end, reset: true) }
            return Page(events: Array(state.events[Int(since - state.first)...]), next: end, reset: false)
        }
    }

    /// `lastPoll` is when a client last asked for a page, `nil` if none ever did.
    public var lastPoll: ContinuousClock.Instant? {
        state.withLock { $0.lastPoll }
    }
}
