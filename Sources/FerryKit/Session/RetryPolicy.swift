/// `RetryPolicy` decides whether a failed attempt is tried again and after how long.
///
/// Transport errors, 408, 429 and 5xx replies are retried; other 4xx replies are not.
/// The delay grows exponentially from ``baseDelay``, is capped at ``maximumDelay`` and is
/// jittered so that many clients do not retry in step.
public struct RetryPolicy: Sendable, Equatable {
    /// Retries after the first attempt, `5` by default.
    public static let defaultRetryLimit = 5
    /// The first delay in seconds, `1` by default.
    public static let defaultBaseDelay = 1.0
    /// The longest delay in seconds, `60` by default (also the cap for a server's Retry-After).
    public static let defaultMaximumDelay = 60.0
    /// Retries after a connection nobody accepted (refused, unreachable), `2` by default: after
    /// 1 s and 2 s, so that a download from a server that is not there gives up within about
    /// 3 s (curl gives up at once) instead of the 31 s of ``defaultRetryLimit``.
    public static let defaultConnectRetryLimit = 2

    public var retryLimit: Int
    /// Retries after ``TransportReason/couldNotConnect(host:port:reason:)``, at most
    /// ``retryLimit``; ``defaultConnectRetryLimit`` by default.
    public var connectRetryLimit: Int
    public var baseDelay: Double
    public var maximumDelay: Double
    /// The fraction of each delay that is random, `0.2` by default (a 10 s delay becomes 8-10 s).
    public var jitter: Double

    public init(retryLimit: Int = defaultRetryLimit, connectRetryLimit: Int = defaultConnectRetryLimit, baseDelay: Double = defaultBaseDelay,
                maximumDelay: Double = defaultMaximumDelay, jitter: Double = 0.2) {
        self.retryLimit = max(0, retryLimit)
        self.connectRetryLimit = max(0, connectRetryLimit)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.jitter = min(1, max(0, jitter))
    }

    /// Whether `error` after `attempt` attempts (1 for the first) is worth another try.
    public func shouldRetry(_ error: FerryError, afterAttempt attempt: Int) -> Bool {
        guard attempt <= retryLimit, error.isTransient else { return false }
        if case .transport(.couldNotConnect) = error { return attempt <= connectRetryLimit }
        return true
    }

    /// Seconds to wait before attempt `attempt + 1`; `retryAfter` (seconds a server asked for) wins, capped.
    /// `random` returns a number in 0...1 (injected so tests are exact).
    public func delay(afterAttempt attempt: Int, retryAfter: Double? = nil, random: () -> Double = { Double.random(in: 0...1) }) -> Double {
        if let retryAfter, retryAfter >= 0 { return min(retryAfter, maximumDelay) }
        let exponent = Double(max(0, attempt - 1))
        let full = min(maximumDelay, baseDelay * pow2(exponent))
        return full * (1 - jitter * min(1, max(0, random())))
    }

    private func pow2(_ exponent: Double) -> Double {
        exponent >= 62 ? .infinity : Double(1 << Int(exponent))
    }
}
