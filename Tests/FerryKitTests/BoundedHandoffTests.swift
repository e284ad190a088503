import Foundation
import Testing
@testable import FerryKit

@Suite struct BoundedHandoffTests {
    private struct Broken: Error {}

    @Test func valuesArriveInOrderThenTheProducersFailure() throws {
        // Given a producer thread putting 1,000 values through a hand-over of depth 2, then failing
        let handoff = BoundedHandoff<Int>(depth: 2)
        Thread.detachNewThread {
            for value in 0..<1000 { handoff.put(value) }
            handoff.finish(Broken())
        }
        // When the consumer takes them
        var taken: [Int] = []
        // Then every value comes, in order, and the failure after the last
        #expect(throws: Broken.self) {
            while let value = try handoff.take() { taken.append(value) }
        }
        #expect(taken == Array(0..<1000))
    }

    @Test func aCancelledHandoffReleasesAWaitingProducer() throws {
        // Given a producer blocked on a full hand-over
        let handoff = BoundedHandoff<Int>(depth: 1)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            handoff.put(1)
            handoff.put(2)
            handoff.put(3)
            done.signal()
        }
        #expect(try handoff.take() == 1)
        // When the consumer cancels
        handoff.cancel()
        // Then the producer's waiting put returns, and a later one is refused
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(!handoff.put(4))
    }
}
