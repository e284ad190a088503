import Synchronization

/// `EventInbox` is the thread-safe way into the front end: any thread posts events, and
/// the run loop, woken through a `WakePipe`, takes them all at once before drawing.
///
/// Posting only appends to a locked list and, if the loop has not been woken since it last
/// emptied the inbox, writes one byte to the pipe. A burst of posts costs one wake-up.
public final class EventInbox: Sendable {
    private struct Pending {
        var events: [TUIEvent] = []
        var signalled = false
    }

    private let pending = Mutex(Pending())
    private let pipe: WakePipe

    /// `init()` makes an empty inbox with its own wake-up pipe.
    public init() throws(TerminalError) {
        pipe = try WakePipe()
    }

    /// `wakeDescriptor` is the file descriptor the run loop polls; it becomes readable when
    /// events are waiting. Also used by the signal handlers to wake the loop.
    public var wakeDescriptor: Int32 { pipe.readDescriptor }

    /// `signalDescriptor` is the write end of the wake-up pipe, for the signal handlers.
    var signalDescriptor: Int32 { pipe.writeDescriptor }

    /// `post(_:)` queues one event; callable from any thread.
    public func post(_ event: TUIEvent) {
        post(contentsOf: [event])
    }

    /// `post(contentsOf:)` queues events in order; callable from any thread.
    public func post(contentsOf events: [TUIEvent]) {
        guard !events.isEmpty else { return }
        let wake = pending.withLock { state -> Bool in
            state.events.append(contentsOf: events)
            defer { state.signalled = true }
            return !state.signalled
        }
        if wake { pipe.signal() }
    }

    /// `updateTasks(_:)` posts changed rows.
    public func updateTasks(_ rows: [TaskRow]) { post(.updateTasks(rows)) }

    /// `show(_:)` posts a note for the message line.
    public func show(_ message: StatusMessage) { post(.message(message)) }

    /// `close()` asks the run loop to stop and restore the terminal.
    public func close() { post(.close) }

    /// `takeAll()` empties the inbox and returns its events in posting order. Called by
    /// the run loop after poll reports the wake descriptor readable.
    public func takeAll() -> [TUIEvent] {
        pipe.drain()
        return pending.withLock { state in
            state.signalled = false
            defer { state.events.removeAll(keepingCapacity: true) }
            return state.events
        }
    }
}
