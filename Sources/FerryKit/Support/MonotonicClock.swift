import Foundation

/// `MonotonicClock` tells the time in seconds on a clock that never goes backwards.
///
/// Injected wherever time matters (speed, ETA, backoff) so tests can drive it by hand.
public protocol MonotonicClock: Sendable {
    /// Seconds since an arbitrary fixed point.
    func now() -> Double
}

/// `SystemClock` is the real monotonic clock (`CLOCK_MONOTONIC`).
public struct SystemClock: MonotonicClock {
    public init() {}

    public func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }
}
