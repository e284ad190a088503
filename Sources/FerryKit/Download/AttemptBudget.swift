/// `AttemptBudget` is the retry rule of one download, as a value: what a failed attempt
/// leads to, and the counts that decide it. ``ResumableDownload`` and the queue's scheduler
/// both keep one per download, so the code base has one retry rule.
///
/// The rule: a file that changed on the server (`FerryError.integrity(.changedOnServer)`)
/// starts over at once, at most ``maximumRestarts`` times, spending nothing; otherwise only
/// attempts that did not move the download on spend the retry budget (a server that drops
/// every few hundred KB still delivers), and the delay grows with every failed attempt,
/// a server's `Retry-After` winning (capped by the policy). A pure value: no clock, no I/O.
package struct AttemptBudget: Sendable, Equatable {
    /// `maximumRestarts` is the fresh starts allowed after the file changed on the server, `3`.
    public static let maximumRestarts = 3

    /// `Verdict` is what follows a failed attempt.
    public enum Verdict: Sendable, Equatable {
        /// `restart` starts over from zero at once (the file changed on the server).
        case restart
        /// `retry(after:)` tries again after that many seconds.
        case retry(after: Double)
        /// `giveUp` ends the retries: the failure is final (or, for the queue, the next mirror's).
        case giveUp
    }

    /// `failures` counts the failed attempts since the last `resetRetries()` (restarts
    /// excluded): the delay grows with it.
    public private(set) var failures = 0
    /// `unproductive` counts those of them that did not move the download on: the budget
    /// the policy's `retryLimit` bounds.
    public private(set) var unproductive = 0
    /// `restarts` counts the fresh starts after the file changed on the server; only a new
    /// budget forgets them.
    public private(set) var restarts = 0

    /// `init()` is a budget with nothing spent.
    public init() {}

    /// `isUntouched` is true while nothing is counted (the budget can be forgotten).
    public var isUntouched: Bool { failures == 0 && unproductive == 0 && restarts == 0 }

    /// `attemptFailed(_:madeProgress:policy:retryAfter:random:)` counts a failed attempt and
    /// says what follows it. `madeProgress` is true when the attempt moved the download on
    /// (more bytes durable than it started from); `retryAfter` is the reply's `Retry-After`
    /// value, read by `RetryPolicy.retryAfterSeconds(_:now:)`; `random` is the jitter source.
    public mutating func attemptFailed(
        _ error: FerryError, madeProgress: Bool, policy: RetryPolicy, retryAfter: String? = nil,
        random: () -> Double = { Double.random(in: 0...1) }
    ) -> Verdict {
        if case .integrity(.changedOnServer) = error, restarts < Self.maximumRestarts {
            // The checkpoint is back at zero: start over at once, no attempt spent.
            restarts += 1
            return .restart
        }
        failures += 1
        if !madeProgress { unproductive += 1 }
        guard policy.shouldRetry(error, afterAttempt: max(1, unproductive)) else { return .giveUp }
        let seconds = retryAfter.flatMap { RetryPolicy.retryAfterSeconds($0) }
        return .retry(after: policy.delay(afterAttempt: failures, retryAfter: seconds, random: random))
    }

    /// `resetRetries()` forgets the failed attempts (a new mirror, the user's resume), not
    /// the restarts.
    public mutating func resetRetries() {
        failures = 0
        unproductive = 0
    }
}
