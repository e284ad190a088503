import FerryQueue
import Synchronization

/// `ActivityFeed` keeps the latest scheduler events a front end needs to follow the daemon
/// (a task started, an attempt ended, the queue changed), numbered, so a client that polls
/// `ferry.activity` with the number it got last receives every event since, once.
///
/// It holds the last `capacity` events; a client further behind is told to read the queue
/// again (`reset`). Its handler runs on the publishing thread: one lock, one append, and the
/// clients waiting for an event (`page(since:waitingUpTo:)`) resumed.
public final class ActivityFeed: Sendable {
    /// `Event` is one event as a client receives it.
    public enum Event: Sendable, Equatable {
        case started(TaskID)
        /// `ended`: the attempt ended in the state given; `path` is where a download now
        /// `done` was saved, `received` the bytes its last progress counted (the live
        /// progress a follower samples is gone once the attempt ended).
        case ended(TaskID, TaskState, error: String?, path: String? = nil, received: Int64? = nil)
        /// `willRetry`: the attempt about to end failed; the next starts after `delay` seconds.
        case willRetry(TaskID, delay: Double)
        /// `note`: what a download from several sources did about one of them, in words.
        case note(TaskID, String)
        /// `firstBytes`: the bytes an attempt counts at its first progress with bytes, and
        /// again at its first with other bytes (no more per attempt): a follower learns where
        /// a download resumed even when it ends before its next look at the live progress.
        case firstBytes(TaskID, received: Int64, expected: Int64?)
        case journalChanged
    }

    /// `longestWait` bounds how long `page(since:waitingUpTo:)` waits for an event.
    public static let longestWait: Duration = .seconds(1)

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
        /// The clients waiting for the next event, by the number of their wait.
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
        var waits = 0
    }

    private let state = Mutex(State())
    /// `Attempt` is what the feed keeps of a running attempt's progress.
    private struct Attempt {
        /// The bytes of its first progress with bytes, once told.
        var first: Int64?
        /// Whether both `firstBytes` events were told.
        var told = false
        /// The bytes of its latest progress.
        var last: Int64?
    }

    /// The running attempts, by task.
    private let attempts = Mutex<[TaskID: Attempt]>([:])

    /// `init()` makes an empty feed; `follow(_:)` fills it.
    public init() {}

    /// `follow(_:)` records `runner`'s events from now on.
    public func follow(_ runner: some QueueRunner) {
        runner.observe { [self] event in record(event) }
    }

    /// `record(_:)` takes one scheduler event: the ones a client follows are appended.
    func record(_ event: SchedulerEvent) {
        switch event {
        case .started(let id):
            attempts.withLock { $0[id] = Attempt() }
            append(.started(id))
        case .progress(let id, let progress):
            let bytes = progress.receivedBytes
            guard bytes > 0 else { return }
            let tells = attempts.withLock { attempts -> Bool in
                guard var attempt = attempts[id] else { return false }
                defer { attempts[id] = attempt }
                attempt.last = bytes
                guard !attempt.told else { return false }
                guard let first = attempt.first else {
                    attempt.first = bytes
                    return true
                }
                guard first != bytes else { return false }
                attempt.told = true
                return true
            }
            if tells { append(.firstBytes(id, received: bytes, expected: progress.expectedReceivedBytes)) }
        case .ended(let id, let taskState, let error, let path):
            let last = attempts.withLock { $0.removeValue(forKey: id) }?.last
            append(.ended(id, taskState, error: error, path: path, received: last))
        case .willRetry(let id, let delay): append(.willRetry(id, delay: delay))
        case .note(let id, let text): append(.note(id, text))
        case .journalChanged: append(.journalChanged)
        case .transferred: break
        }
    }

    /// `append(_:)` adds one event, dropping the oldest beyond `capacity`.
    public func append(_ event: Event) {
        let waiting = state.withLock { state in
            state.events.append(event)
            if state.events.count > Self.capacity {
                let dropped = state.events.count - Self.capacity / 2
                state.events.removeFirst(dropped)
                state.first += Int64(dropped)
            }
            let clients = Array(state.waiting.values)
            state.waiting.removeAll()
            return clients
        }
        for client in waiting { client.resume() }
    }

    /// `page(since:waitingUpTo:)` is `page(since:)` once it holds an event, or once `wait`
    /// (at most `longestWait`) has passed without one: a client follows the feed without
    /// asking in a loop, and hears an event as soon as it happens.
    public func page(since: Int64?, waitingUpTo wait: Duration) async -> Page {
        let first = page(since: since)
        guard let since, first.events.isEmpty, !first.reset, first.next == since, wait > .zero else { return first }
        let number = state.withLock { state in
            state.waits += 1
            return state.waits
        }
        var timer: Task<Void, Never>?
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let registered = state.withLock { state in
                // An event appended since the first look does not wait.
                guard state.first + Int64(state.events.count) == since else { return false }
                state.waiting[number] = continuation
                return true
            }
            guard registered else { return continuation.resume() }
            timer = Task { [self] in
                try? await Task.sleep(for: min(wait, Self.longestWait))
                // Resumed by an event already: nothing is registered under this number.
                state.withLock { $0.waiting.removeValue(forKey: number) }?.resume()
            }
        }
        timer?.cancel()
        return page(since: since)
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
