import Foundation
import Testing
@testable import FerryRPC

/// Failed tokens are throttled across connections: checks take turns in one schedule per
/// secret, each failure holds the turn for a delay that doubles up to a cap, a right token
/// waits at most `maximumWait`, and a batch is one guess.
struct TokenThrottleTests {
    @Test func parallelFailuresTakeTurnsWithGrowingDelaysAndAFullQueueRefusesWithoutChecking() {
        // Given the default policy (1 s doubling to 8 s, at most 10 s of wait).
        var throttle = TokenThrottle()
        let start = ContinuousClock.now

        // When five wrong tokens arrive at the same instant.
        let answers = (0..<5).map { _ in throttle.attempt(matched: false, at: start) }

        // Then they are answered one after the other, 1, 2, 4 and 8 s apart, and the fifth,
        // whose turn is more than 10 s away, is refused at once without being counted.
        #expect(answers == [
            .answer(matched: false, at: start + .seconds(1)), .answer(matched: false, at: start + .seconds(3)),
            .answer(matched: false, at: start + .seconds(7)), .answer(matched: false, at: start + .seconds(15)), .busy,
        ])
        #expect(throttle.failures == 4)

        // And a right token arriving while the queue is full is refused too (not held longer),
        // while one arriving within 10 s of the turn waits for it and resets the count.
        #expect(throttle.attempt(matched: true, at: start) == .busy)
        #expect(throttle.attempt(matched: true, at: start + .seconds(6)) == .answer(matched: true, at: start + .seconds(15)))
        #expect(throttle.failures == 0)
        #expect(throttle.attempt(matched: false, at: start + .seconds(15)) == .answer(matched: false, at: start + .seconds(16)))
    }

    @Test func aRightTokenWithNothingQueuedIsAnsweredAtOnce() {
        var throttle = TokenThrottle()
        let now = ContinuousClock.now
        #expect(throttle.attempt(matched: true, at: now) == .answer(matched: true, at: now))
        // A failure long past leaves no wait behind it.
        _ = throttle.attempt(matched: false, at: now)
        #expect(throttle.attempt(matched: true, at: now + .seconds(5)) == .answer(matched: true, at: now + .seconds(5)))
    }

    @Test func theDelayDoublesUpToItsCap() {
        let policy = TokenThrottle.Policy()
        #expect((1...6).map(policy.delay(afterFailures:)) == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8), .seconds(8)])
        #expect(policy.delay(afterFailures: 1_000_000_000) == .seconds(8))
        #expect(TokenThrottle.Policy(firstDelay: .zero).delay(afterFailures: 1_000_000_000) == .zero)
    }

    @Test func aCallerCancelledWhileWaitingIsRefusedSoItsCallNeverRunsEarly() async {
        // Given a failure holding the gate for 30 s and a right token queued behind it.
        let gate = TokenGate(policy: TokenThrottle.Policy(firstDelay: .seconds(30), maximumWait: .seconds(60)))
        _ = gate.turn(matched: false)
        let queued = gate.turn(matched: true)

        // When its caller is cancelled while it waits, then it is refused.
        let waiting = Task { await TokenGate.answer(to: queued) }
        waiting.cancel()
        #expect(await waiting.value == false)
    }

    @Test func parallelWrongTokensOverTheDispatcherCostOneDelayEachAndTheRightOneAnswersAfter() async throws {
        // Given a dispatcher whose secret costs 100 ms per failure (no growth).
        let fixture = try EngineFixture()
        defer { fixture.close() }
        let delay = Duration.milliseconds(100)
        let secret = try #require(RPCSecret("a-long-enough-secret", throttle: .init(firstDelay: delay, maximumDelay: delay, maximumWait: .seconds(60))))
        let dispatcher = RPCDispatcher(engine: fixture.engine, secret: secret)
        func version(_ token: String) -> Data {
            (["jsonrpc": "2.0", "id": .integer(1), "method": "aria2.getVersion", "params": [.string("token:" + token)]] as JSONValue).serialized()
        }

        // When eight wrong tokens are sent at once, as from eight connections.
        let guesses = 8
        let clock = ContinuousClock()
        let started = clock.now
        let refused = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<guesses {
                group.addTask { await dispatcher.answer(version("guess-\(index)"), origin: .network).unauthorized }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }

        // Then every one is refused, and together they took at least one delay each (a
        // per-connection delay would have taken one in all).
        #expect(refused == guesses)
        #expect(clock.now - started >= delay * guesses)

        // And the right token is answered afterwards.
        let right = await dispatcher.answer(version("a-long-enough-secret"), origin: .network)
        #expect(!right.unauthorized)
        #expect(JSONValue.parse(right.body)?.objectValue?["result"] != nil)
    }
}
