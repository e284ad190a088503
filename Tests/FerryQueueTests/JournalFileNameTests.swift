import Foundation
import GRDB
import Testing
@testable import FerryQueue

/// Schema version 4: `task.file_name`, the name a download writes, recorded the first time it
/// starts (with the commit that marks it running) and kept from then on.
@Suite struct JournalFileNameTests {
    @Test func aVersion3JournalIsMigratedAndItsTasksHaveNoNameYet() throws {
        // Given a journal written by version 3 with a task that ran before.
        let temp = try TemporaryDirectory()
        let path = try oldJournal(upTo: 3, in: temp, writing: [
            """
            INSERT INTO task (kind, state, position, requested_name, created_at, updated_at, started_at, durable_offset)
            VALUES ('download', 'paused', 1, 'same.bin', 1000, 2000, 1500, 4096)
            """,
            "INSERT INTO task_url (task_id, ordinal, url) VALUES (1, 0, 'https://example.com/a')",
        ])

        // When this version opens it.
        let opening = try Journal.open(at: path)
        let journal = opening.journal

        // Then it is migrated in place, nothing set aside, and the task is as it was, unnamed.
        #expect(opening.recovery == nil)
        #expect(try journal.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == JournalSchema.version)
        let task = try #require(try journal.task(TaskID(1)))
        #expect(task.fileName == nil)
        #expect(task.spec.requestedName == "same.bin")
        #expect(task.resume.durableOffset == 4096)
        #expect(task.spec.urls.map(\.string) == ["https://example.com/a"])
    }

    @Test func theFirstNameGivenIsKeptAcrossRestarts() throws {
        // Given two queued downloads.
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try journal.insert([try download("https://example.com/a"), try download("https://example.com/b")])

        // When they start with names, one only without.
        let moved = try journal.markRunning(ids, fileNames: ["same.1.bin", nil])

        // Then the name is recorded with the start.
        #expect(moved == ids)
        #expect(try journal.task(ids[0])?.fileName == "same.1.bin")
        #expect(try journal.task(ids[1])?.fileName == nil)

        // When they are queued again (a restart) and handed to an engine with other names.
        #expect(try journal.requeueInterrupted() == 2)
        let handed = try journal.recordRound(started: [], outcomes: [], handing: ids, fileNames: ["same.bin", "same.2.bin"])

        // Then the first one keeps its first name; the other gets its first; both stay queued.
        #expect(handed.handed == ids)
        #expect(try journal.task(ids[0])?.fileName == "same.1.bin")
        #expect(try journal.task(ids[1])?.fileName == "same.2.bin")
        #expect(try journal.states(of: ids) == [ids[0]: .queued, ids[1]: .queued])
    }
}
