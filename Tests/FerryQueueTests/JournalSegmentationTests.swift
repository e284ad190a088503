import Foundation
import GRDB
import Testing
@testable import FerryQueue

/// Schema version 5: a task's `connections` and `min_split_size`, and the checkpoint of a
/// split download (validators and every range's durable end in one transaction).
@Suite struct JournalSegmentationTests {
    @Test func aVersion4JournalIsMigratedAndItsTasksUseTheDefaults() throws {
        // Given a journal written by version 4 with a task.
        let temp = try TemporaryDirectory()
        let path = try oldJournal(upTo: 4, in: temp, writing: oneQueuedDownloadRows)

        // When this version opens it.
        let opening = try Journal.open(at: path)

        // Then it is at the newest version and the task has no connection count of its own.
        #expect(opening.recovery == nil)
        #expect(try opening.journal.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == JournalSchema.version)
        let task = try #require(try opening.journal.task(TaskID(1)))
        #expect(task.spec.options.connections == nil)
        #expect(task.spec.options.minSplitSize == nil)
    }

    @Test func connectionsAndSegmentsRoundTrip() throws {
        let temp = try TemporaryDirectory()
        let journal = try Journal.open(at: temp.file("journal.sqlite")).journal
        // Given a task added with 8 connections and a 2 MiB minimum split.
        let id = try journal.insert(NewTask(spec: TaskSpec(urls: [try TransferURL(validating: "https://example.com/big")],
                                                         options: TaskOptions(connections: 8, minSplitSize: 2 << 20))))

        // When a split checkpoint is recorded, then another with fewer ranges.
        let resume = ResumeRecord(etag: "\"e\"", totalLength: 300, durableOffset: 150)
        try journal.recordSegmentedCheckpoint(id, resume, segments: [
            Segment(start: 0, end: 100, durableOffset: 100), Segment(start: 100, end: 200, durableOffset: 130),
            Segment(start: 200, end: 300, durableOffset: 220),
        ])
        try journal.recordSegmentedCheckpoint(id, resume, segments: [
            Segment(start: 0, end: 200, durableOffset: 200), Segment(start: 200, end: 300, durableOffset: 250),
        ])

        // Then the options, the validators and the last ranges are read back.
        let task = try #require(try journal.task(id))
        #expect(task.spec.options.connections == 8)
        #expect(task.spec.options.minSplitSize == 2 << 20)
        #expect(task.resume.etag == "\"e\"")
        #expect(try journal.segments(of: id) == [Segment(start: 0, end: 200, durableOffset: 200),
                                                  Segment(start: 200, end: 300, durableOffset: 250)])
    }

    @Test func aConnectionCountOutsideOneToSixteenIsRefusedByTheJournal() throws {
        let temp = try TemporaryDirectory()
        let journal = try Journal.open(at: temp.file("journal.sqlite")).journal
        #expect(throws: (any Error).self) {
            try journal.insert(NewTask(spec: TaskSpec(urls: [try TransferURL(validating: "https://example.com/x")],
                                                      options: TaskOptions(connections: 17))))
        }
    }
}
