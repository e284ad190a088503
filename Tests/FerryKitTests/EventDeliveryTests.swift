import Foundation
import Synchronization
import Testing
@testable import FerryKit

/// `EventHub` observers and filtered streams, and `TransferTask.onFinish`: the cheap ways the
/// queue follows thousands of transfers.
@Suite struct EventDeliveryTests {
    @Test func observersSeeEveryEventOnThePublishingThreadUntilRemoved() {
        let hub = EventHub<Int>()
        let seen = Mutex<[Int]>([])
        let token = hub.observe { event in seen.withLock { $0.append(event) } }
        hub.publish(1)
        hub.publish(2)
        hub.removeObserver(token)
        hub.publish(3)
        #expect(seen.withLock { $0 } == [1, 2])
    }

    @Test func aFilteredStreamGetsOnlyWhatItAccepts() async {
        let hub = EventHub<Int>()
        let evens = hub.subscribe { $0 % 2 == 0 }
        let all = hub.subscribe()
        for value in 1...6 { hub.publish(value) }
        hub.finish()
        var received: [Int] = []
        for await value in evens { received.append(value) }
        var everything: [Int] = []
        for await value in all { everything.append(value) }
        #expect(received == [2, 4, 6])
        #expect(everything == [1, 2, 3, 4, 5, 6])
    }

    @Test func onFinishRunsOnceBeforeAndAfterTheEnd() async throws {
        let session = SessionManager()
        defer { session.invalidate() }
        let task = session.dataTask(with: Request(url: try #require(URL(string: "http://127.0.0.1:9/"))))
        let calls = Mutex<[String]>([])
        task.onFinish { outcome in calls.withLock { $0.append("early \(Self.name(outcome))") } }
        task.cancel()
        task.onFinish { outcome in calls.withLock { $0.append("late \(Self.name(outcome))") } }
        _ = await task.outcome()
        #expect(calls.withLock { $0 } == ["early cancelled", "late cancelled"])
    }

    private static func name(_ outcome: Result<TransferResult, FerryError>) -> String {
        if case .failure(.cancelled) = outcome { return "cancelled" }
        return "other"
    }
}
