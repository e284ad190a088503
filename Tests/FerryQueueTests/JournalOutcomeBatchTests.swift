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

    @Test func oneRoundMarksStartsRecordsOutcomesAndHandsOverLeavingHandedTasksQueued() throws {
        // Given five queued tasks, the fifth then paused by another process.
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try journal.insert(try (0..<5).map { try download("https://example.com/\($0)") })
        #expect(try journal.updateStates([ids[4]], to: .paused) == [ids[4]])
        let before = try journal.revision()

        // When one round marks the first two started, records the second one done (it started
        // and ended before it was marked), and hands the last three to the engine.
        let written = try journal.recordRound(started: [ids[0], ids[1]],
                                              outcomes: [AttemptOutcome(id: ids[1], state: .done, finalPath: "/d/1")],
                                              handing: [ids[2], ids[3], ids[4]], fileNames: ["two.bin", nil, "four.bin"])

        // Then the first reads running, the second done, the handed ones queued with their
        // names and start time; the paused one is neither handed nor named.
        #expect(written.started == [ids[0], ids[1]] && written.states == [.done] && written.handed == [ids[2], ids[3]])
        #expect(try journal.states(of: ids) == [ids[0]: .running, ids[1]: .done, ids[2]: .queued, ids[3]: .queued,
                                                ids[4]: .paused])
        let handed = try #require(try journal.task(ids[2]))
        #expect(handed.fileName == "two.bin" && handed.startedAt != nil)
        #expect(try journal.task(ids[4])?.fileName == nil)
        #expect(try journal.revision() > before)
    }

    @Test func anEmptyBatchWritesNothing() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let before = try journal.revision()

        #expect(try journal.recordOutcomes([]).isEmpty)

        #expect(try journal.revision() == before)
    }
}
