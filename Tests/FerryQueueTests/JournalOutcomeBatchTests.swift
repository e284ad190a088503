import Foundation
import Testing
@testable import FerryQueue

@Suite struct JournalOutcomeBatchTests {
    @Test func recordsSeveralOutcomesInOneCallWithEachTasksRules() throws {
        // Given three running tasks, one of them then paused by another process, and a removed one
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try journal.insert([try download("https://example.com/a"), try download("https://example.com/b"),
                                      try download("https://example.com/c"), try download("https://example.com/d")])
        #expect(try journal.markRunning(ids) == ids)
        #expect(try journal.updateStates([ids[1]], to: .paused) == [ids[1]])
        #expect(try journal.remove([ids[3]]) == 1)
        let before = try journal.revision()

        // When their outcomes are recorded together
        let states = try journal.recordOutcomes([
            AttemptOutcome(id: ids[0], state: .done, finalPath: "/downloads/a"),
            AttemptOutcome(id: ids[1], state: .done, finalPath: "/downloads/b"),
            AttemptOutcome(id: ids[2], state: .failed, message: "HTTP 404"),
            AttemptOutcome(id: ids[3], state: .done),
        ])

        // Then each is stored as one recordOutcome would: the paused task stays paused, the
        // removed one is nil, and the revision moved
        #expect(states == [.done, .paused, .failed, nil])
        let a = try #require(try journal.task(ids[0]))
        #expect(a.state == .done && a.finalPath == "/downloads/a" && a.attempts == 1 && a.finishedAt != nil)
        let b = try #require(try journal.task(ids[1]))
        #expect(b.state == .paused && b.attempts == 1 && b.finishedAt == nil)
        let c = try #require(try journal.task(ids[2]))
        #expect(c.state == .failed && c.lastError == "HTTP 404" && c.finalPath == nil)
        #expect(try journal.revision() > before)
        #expect(try journal.finalPath(of: ids[0]) == "/downloads/a")
        #expect(try journal.finalPath(of: ids[2]) == nil)
    }

    @Test func anEmptyBatchWritesNothing() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let before = try journal.revision()

        #expect(try journal.recordOutcomes([]).isEmpty)

        #expect(try journal.revision() == before)
    }
}
