import Synchronization

/// `StopOnce` lets a server's `stop()` run once, whichever of the test and `deinit` calls first.
public final class StopOnce: Sendable {
    private let done = Mutex(false)

    public init() {}

    /// `claim()` is true the first time only.
    public func claim() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}

extension ChildProcess {
    /// `stopWatched()` ends a server started through the watchdog: SIGTERM, up to 5 s, then
    /// SIGKILL, and the watchdog's input closed.
    public func stopWatched() {
        terminate(grace: .seconds(5))
        closeInput()
    }
}
