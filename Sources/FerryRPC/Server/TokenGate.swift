import Synchronization

/// `TokenGate` makes token checks wait their turn in one `TokenThrottle` shared by every
/// connection of a server (it lives in the server's `RPCSecret`). Safe from any task: the
/// throttle sits behind one lock, held only to take a turn, never while waiting.
final class TokenGate: Sendable {
    private let throttle: Mutex<TokenThrottle>

    /// `init(policy:)` makes a gate with no failure yet.
    init(policy: TokenThrottle.Policy) {
        throttle = Mutex(TokenThrottle(policy: policy))
    }

    /// `admits(matched:)` takes a turn for a check whose token `matched`, waits until its answer
    /// is due and returns it (`answer(to:)`).
    func admits(matched: Bool) async -> Bool {
        await Self.answer(to: turn(matched: matched))
    }

    /// `turn(matched:)` takes the next turn now, without waiting.
    func turn(matched: Bool) -> TokenThrottle.Outcome {
        throttle.withLock { $0.attempt(matched: matched, at: .now) }
    }

    /// `answer(to:)` waits until `outcome` is due and returns it: `false` for a failure, a check
    /// refused as busy, or a caller cancelled while it waited (its call must not run early).
    static func answer(to outcome: TokenThrottle.Outcome) async -> Bool {
        guard case .answer(let matched, let due) = outcome else { return false }
        // A turn due now is answered at once: a sleep, even of nothing, hands the call to
        // Swift's global pool and back (a tenth of a single status call).
        guard due > ContinuousClock.now else { return matched && !Task.isCancelled }
        do {
            try await Task.sleep(until: due, clock: .continuous)
        } catch {
            return false
        }
        return matched
    }
}
