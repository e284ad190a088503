/// `TokenThrottle` is the schedule of token checks shared by every TCP connection of one server:
/// checks take turns, and each failed one holds the turn for a delay before it is answered, so
/// parallel guesses cost as much as one after the other. Pure logic: the caller passes the time
/// and waits (`TokenGate` does both).
///
/// - A failure is answered `delay(afterFailures:)` after its turn: 1 s, doubling with each
///   consecutive failure up to 8 s (`Policy()`); the next check's turn comes after that.
/// - A match is answered at its turn and sets the count back to zero. It waits its turn like
///   any other: answering a right token ahead of queued failures would let a flood of guesses
///   run unthrottled, since a right guess would run its call at once.
/// - A check whose turn is more than `maximumWait` (10 s) away is refused at once without being
///   compared and is not counted: a flood cannot queue guesses without end, and a right token
///   sent meanwhile is answered within `maximumWait` or refused, never held longer. (Over
///   `control.sock`, which asks for no token, nothing is ever throttled.)
///
/// ```swift
/// var throttle = TokenThrottle()
/// throttle.attempt(matched: false, at: .now)  // .answer(matched: false, at: now + 1 s)
/// ```
public struct TokenThrottle: Sendable {
    /// `Policy` is the delays of a `TokenThrottle`.
    public struct Policy: Sendable, Equatable {
        /// `firstDelay` is what the first failure after a success costs, 1 s by default (aria2).
        public var firstDelay: Duration
        /// `maximumDelay` caps the doubling delay, 8 s by default.
        public var maximumDelay: Duration
        /// `maximumWait` is the longest a check waits for its turn, 10 s by default.
        public var maximumWait: Duration

        /// `init(firstDelay:maximumDelay:maximumWait:)` makes a policy.
        public init(firstDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(8), maximumWait: Duration = .seconds(10)) {
            self.firstDelay = firstDelay
            self.maximumDelay = maximumDelay
            self.maximumWait = maximumWait
        }

        /// `delay(afterFailures:)` is what the `count`-th consecutive failure costs (`count` ≥ 1).
        public func delay(afterFailures count: Int) -> Duration {
            var delay = firstDelay
            var doublings = count - 1
            while doublings > 0, delay > .zero, delay < maximumDelay {
                delay *= 2
                doublings -= 1
            }
            return min(delay, maximumDelay)
        }
    }

    /// `Outcome` is what to answer a check, and when.
    public enum Outcome: Sendable, Equatable {
        /// `answer` is the check's result, to be given at `at` and not before (nor its call run).
        case answer(matched: Bool, at: ContinuousClock.Instant)
        /// `busy` is a check refused at once without being compared: its turn was too far away.
        case busy
    }

    /// `policy` is the delays, `Policy()` by default.
    public let policy: Policy
    /// `failures` is the count of consecutive failures, back to zero after a match.
    public private(set) var failures = 0
    private var freeAt: ContinuousClock.Instant?

    /// `init(policy:)` makes a throttle with no failure yet.
    public init(policy: Policy = Policy()) {
        self.policy = policy
    }

    /// `attempt(matched:at:)` takes the next turn for a check made at `now` whose token
    /// `matched`, and says when to answer it.
    public mutating func attempt(matched: Bool, at now: ContinuousClock.Instant) -> Outcome {
        let turn = max(now, freeAt ?? now)
        guard turn - now <= policy.maximumWait else { return .busy }
        guard !matched else {
            failures = 0
            return .answer(matched: true, at: turn)
        }
        failures += 1
        let end = turn + policy.delay(afterFailures: failures)
        freeAt = end
        return .answer(matched: false, at: end)
    }
}
