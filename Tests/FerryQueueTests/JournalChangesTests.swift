import Foundation
import Testing
@testable import FerryQueue

@Suite struct JournalChangesTests {
    @Test func updateStampsTellWhichTasksChangedAndTasksByIdSkipsMissingOnes() throws {
        // Given three tasks, their stamps as the records report them
        let temp = try TemporaryDirectory()
        let clock = FixedClock()
        let journal = try openJournal(in: temp, clock: clock)
        let ids = try journal.insert([try download("https://example.com/a"), try download("https://example.com/b"),
                                      try download("https://example.com/c")])
        var before: [TaskID: Int64] = [:]
        try journal.forEachUpdateStamp { id, stamp in before[id] = stamp }
        #expect(before.count == 3)
        for record in try journal.tasks(ids: ids) {
            #expect(before[record.id] == record.updateStamp)
        }

        // When one is paused a few milliseconds later and another removed
        clock.advance(0.005)
        try journal.updateState(ids[1], to: .paused)
        #expect(try journal.remove([ids[2]]) == 1)

        // Then only the paused task's stamp moved, the removed one is gone, and reading by id
        // returns the tasks that exist, in id order
        var after: [TaskID: Int64] = [:]
        var order: [TaskID] = []
        try journal.forEachUpdateStamp { id, stamp in
            after[id] = stamp
            order.append(id)
        }
        #expect(order == [ids[0], ids[1]])
        #expect(after[ids[0]] == before[ids[0]])
        #expect(try #require(after[ids[1]]) == (try #require(before[ids[1]])) + 5)
        #expect(try journal.tasks(ids: [ids[2], ids[1], ids[0]]).map(\.id) == [ids[0], ids[1]])
        #expect(try journal.tasks(ids: []).isEmpty)
    }
}
