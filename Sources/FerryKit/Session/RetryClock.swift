/// `RetryClock` waits between retries; injected so that backoff is tested without sleeping.
public protocol RetryClock: Sendable {
    /// Waits `seconds` (returns early when the calling task is cancelled).
    func sleep(seconds: Double) async
}

/// `TaskRetryClock` waits with `Task.sleep`: the real clock.
public struct TaskRetryClock: RetryClock {
    public init() {}

    public func sleep(seconds: Double) async {
        guard seconds > 0 else { return }
        try? await Task.sleep(nanoseconds: UInt64(min(seconds, 86_400) * 1_000_000_000))
    }
}
