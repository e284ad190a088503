/// `RPCSecret` is the secret TCP clients give as their first parameter (`token:SECRET`), with the
/// `TokenGate` its checks take turns in: one secret per server, so every connection shares it.
public struct RPCSecret: Sendable {
    private let bytes: [UInt8]
    private let gate: TokenGate

    /// `init(_:throttle:)` keeps `text`; an empty secret is none (`nil`). Failed checks are
    /// throttled by `throttle`, `TokenThrottle.Policy()` by default.
    public init?(_ text: String, throttle: TokenThrottle.Policy = TokenThrottle.Policy()) {
        guard !text.isEmpty else { return nil }
        bytes = Array(text.utf8)
        gate = TokenGate(policy: throttle)
    }

    /// `matches(token:)` compares `token` with the secret in time that depends only on the
    /// lengths, never on where the first difference is.
    public func matches(token: String) -> Bool {
        let given = Array(token.utf8)
        var difference = UInt8(truncatingIfNeeded: given.count ^ bytes.count)
        for index in 0..<max(given.count, bytes.count) {
            let left = index < given.count ? given[index] : 0
            let right = index < bytes.count ? bytes[index] : 0
            difference |= left ^ right
        }
        return difference == 0 && given.count == bytes.count
    }

    /// `admits(token:)` checks `token` (`nil`, none given, is a failure) in its turn among every
    /// check of this secret and returns once the answer is due: a match at its turn, a failure
    /// after its delay (`TokenThrottle`).
    public func admits(token: String?) async -> Bool {
        await gate.admits(matched: token.map(matches) ?? false)
    }
}
