import Dispatch
import Synchronization

/// `BoundedHandoff` carries values from one producing thread to one consuming thread, at
/// most `depth` waiting at a time (the producer waits for room): two cores then work at once,
/// one reading while the other writes (`ferry list` reads pages of the journal on one thread
/// and prints them on another).
///
/// The producer calls `put(_:)` and, once done, `finish(_:)`; the consumer calls `take()`
/// until it returns `nil`, or `cancel()` when it stops early (a waiting or later `put`
/// then returns false, so the producer can stop).
package final class BoundedHandoff<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        var finished = false
        var failure: (any Error)?
        var cancelled = false
    }

    private let state = Mutex(State())
    private let room: DispatchSemaphore
    private let ready = DispatchSemaphore(value: 0)

    /// `init(depth:)` lets `depth` values (at least one) wait for the consumer.
    package init(depth: Int) {
        room = DispatchSemaphore(value: max(1, depth))
    }

    /// `put(_:)` hands `element` over, waiting while `depth` values wait; false once the
    /// consumer cancelled (the value is dropped).
    @discardableResult
    package func put(_ element: Element) -> Bool {
        room.wait()
        let taken = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.items.append(element)
            return true
        }
        if taken { ready.signal() } else { room.signal() }
        return taken
    }

    /// `finish(_:)` says nothing more comes; `failure`, when given, is thrown by the
    /// consumer's `take()` after the values handed over before it.
    package func finish(_ failure: (any Error)? = nil) {
        state.withLock { state in
            state.finished = true
            state.failure = failure
        }
        ready.signal()
    }

    /// `take()` is the next value, waiting for it; `nil` once the producer finished and every
    /// value was taken. It throws the producer's failure, after its values.
    package func take() throws -> Element? {
        while true {
            ready.wait()
            let next = state.withLock { state -> (Element?, done: Bool, failure: (any Error)?) in
                if !state.items.isEmpty { return (state.items.removeFirst(), false, nil) }
                return (nil, state.finished, state.failure)
            }
            if let element = next.0 {
                room.signal()
                return element
            }
            if next.done {
                // Leave the signal for any later call, which also finds the end.
                ready.signal()
                if let failure = next.failure { throw failure }
                return nil
            }
        }
    }

    /// `cancel()` stops the hand-over: the producer's waiting and later `put(_:)` return
    /// false.
    package func cancel() {
        state.withLock { $0.cancelled = true }
        room.signal()
    }
}
