import Foundation
import GRDB
import Testing
@testable import FerryQueue

@Suite struct JournalTests {
    @Test func migratesAFreshJournalToTheNewestVersion() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)

        let (version, applicationID, mode, tables) = try journal.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA user_version"),
             try Int32.fetchOne(db, sql: "PRAGMA application_id"),
             try String.fetchOne(db, sql: "PRAGMA journal_mode"),
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"))
        }
        #expect(version == Journal.schemaVersion)
        #expect(applicationID == JournalSchema.applicationID)
        #expect(mode == "wal")
        for table in JournalSchema.tables {
            #expect(tables.contains(table))
        }
        #expect(try journal.read { try JournalSchema.migrator.completedMigrations($0) } == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9"])
    }

    @Test func aVersion6JournalsFinishedDownloadHasNoRecordedFileAndANewOutcomeRecordsOne() throws {
        // Given a journal written by version 6 with a queued download.
        let temp = try TemporaryDirectory()
        let path = try oldJournal(upTo: 6, in: temp, writing: oneQueuedDownloadRows)

        // When this version opens it, its task has no saved file recorded.
        let journal = try Journal.open(at: path).journal
        defer { try? journal.close() }
        #expect(try journal.task(TaskID(1))?.savedFile == nil)

        // And an outcome that records one keeps its time and inode, with the length as its size.
        let saved = SavedFile(modifiedNanoseconds: 1_700_000_000_123_456_789, inode: 42, size: 5)
        _ = try journal.recordOutcomes([AttemptOutcome(id: TaskID(1), state: .running)])
        _ = try journal.recordOutcomes([AttemptOutcome(id: TaskID(1), state: .done, finalPath: "/tmp/a", length: 5, savedFile: saved)])
        #expect(try journal.task(TaskID(1))?.savedFile == saved)
    }

    @Test func aVersion2JournalKeepsItsQueueOrderUnderTheQueuedIndex() throws {
        // Given a journal written by a build that knew only version 2.
        let temp = try TemporaryDirectory()
        let path = try oldJournal(upTo: 2, in: temp)

        // When this build opens it and queues tasks.
        let journal = try Journal.open(at: path).journal
        let ids = try (0..<5).map { try journal.insert(download("https://example.com/\($0)")) }
        _ = try journal.markRunning([ids[0]])
        try journal.setPriority(5, for: ids[4])

        // Then it is at the newest version, with the queued tasks' index instead of the old one.
        #expect(try journal.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == Journal.schemaVersion)
        let indexes = try journal.read {
            try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'task'")
        }
        #expect(indexes.contains("task_queued") && !indexes.contains("task_by_state"))
        let plan = try journal.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT * FROM task WHERE state = 'queued' ORDER BY priority DESC, position LIMIT 16")
                .map { $0["detail"] as String }.joined(separator: "; ")
        }
        #expect(plan.contains("task_queued"), "\(plan)")
        // Queue order: priority first, then position; the running task is not runnable.
        #expect(try journal.nextRunnable(limit: 10).map(\.id) == [ids[4], ids[1], ids[2], ids[3]])
    }

    @Test func aVersion1JournalIsMigratedWithItsTasks() throws {
        // Given a journal written by a build that knew only version 1.
        let temp = try TemporaryDirectory()
        let path = try oldJournal(upTo: 1, in: temp)

        // When this build opens it.
        let journal = try Journal.open(at: path).journal
        let id = try journal.insert(download("https://example.com/a"))

        // Then it is at the newest version and the new column works.
        #expect(try journal.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == Journal.schemaVersion)
        #expect(try journal.task(id)?.reply == nil)
        _ = try journal.recordOutcomes([AttemptOutcome(id: id, state: .running)])
        _ = try journal.recordOutcomes([AttemptOutcome(id: id, state: .done, reply: "201 Created")])
        #expect(try journal.task(id)?.reply == "201 Created")
    }

    @Test func reopeningKeepsTheTasks() throws {
        let temp = try TemporaryDirectory()
        let id = try openJournal(in: temp).insert(download("https://example.com/a"))

        let reopened = try openJournal(in: temp)

        #expect(try reopened.task(id)?.spec.urls.map(\.string) == ["https://example.com/a"])
    }

    @Test func storesAndReadsBackAFullDownload() throws {
        // Given a download with mirrors, secrets, options and a checksum
        let temp = try TemporaryDirectory()
        let clock = FixedClock()
        let journal = try openJournal(in: temp, clock: clock)
        let spec = TaskSpec(
            urls: [try TransferURL(validating: "https://user:pw@a.example/f.iso"),
                   try TransferURL(validating: "http://b.example/f.iso")],
            headers: [try HeaderField(parsing: "Authorization: Bearer s3cret"),
                      try HeaderField(parsing: "Accept: */*")],
            destinationDirectory: "/downloads",
            requestedName: "f.iso",
            overwrite: true,
            checksum: try Checksum(parsing: "sha-256=" + String(repeating: "AB", count: 32)),
            useContentDisposition: true,
            options: TaskOptions(maxDownloadLimit: 1_048_576, retries: 3))

        // When it is inserted and read back
        let id = try journal.insert(NewTask(spec: spec, priority: 2))
        let record = try #require(try journal.task(id))

        // Then everything survived, secrets included
        #expect(record.spec == spec)
        #expect(record.kind == .download)
        #expect(record.state == .queued)
        #expect(record.priority == 2)
        #expect(record.attempts == 0)
        #expect(record.createdAt == clock.now())
        #expect(record.resume == ResumeRecord())
        #expect(record.spec.checksum?.hex == String(repeating: "ab", count: 32))
        #expect(record.spec.headers[0].value == "Bearer s3cret")

        // But printing it shows no secret
        let printed = "\(record)"
        #expect(!printed.contains("s3cret"))
        #expect(!printed.contains("pw"))
        #expect(printed.contains("https://***@a.example/f.iso"))
        #expect(printed.contains("Authorization: ***"))
    }

    @Test func storesAndReadsBackAnUpload() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let upload = UploadSpec(
            method: "PUT",
            fields: [.init(name: "title", value: "Holiday"), .init(name: "tag", value: "sea")],
            files: [.init(fieldName: "photo", path: "/tmp/a.jpg", filename: "a.jpg", mimeType: "image/jpeg"),
                    .init(fieldName: "doc", path: "/tmp/b.txt")])
        let spec = TaskSpec(urls: [try TransferURL(validating: "https://up.example/form")], upload: upload)

        let id = try journal.insert(NewTask(spec: spec))
        let raw = TaskSpec(urls: [try TransferURL(validating: "https://up.example/raw")],
                           upload: UploadSpec(bodyFile: "/tmp/body.bin"))
        let rawID = try journal.insert(NewTask(spec: raw))

        #expect(try journal.task(id)?.spec == spec)
        #expect(try journal.task(id)?.kind == .upload)
        #expect(try journal.task(rawID)?.spec.upload?.bodyFile == "/tmp/body.bin")
        #expect(try journal.task(rawID)?.spec.upload?.method == "POST")
        // Read in one page with a download: each task gets its own form, the download none.
        let plain = try download("https://example.com/plain")
        _ = try journal.insert(plain)
        #expect(try journal.nextRunnable(limit: 10).map(\.spec) == [spec, raw, plain.spec])
    }

    @Test func aTaskWithoutURLIsRefusedAndNothingIsStored() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)

        #expect(throws: QueueError.self) {
            try journal.insert([try download("https://example.com/a"), NewTask(spec: TaskSpec(urls: []))])
        }
        #expect(try journal.countsByState().values.reduce(0, +) == 0)
    }

    @Test func idsAreNotReusedAfterRemoval() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let first = try journal.insert(download("https://example.com/a"))

        #expect(try journal.remove([first]) == 1)
        let second = try journal.insert(download("https://example.com/b"))

        #expect(second > first)
        #expect(try journal.task(first) == nil)
    }

    @Test func removeDeletesChildRows() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        var task = try download("https://example.com/a")
        task.spec.headers = [try HeaderField(parsing: "X-A: 1")]
        let id = try journal.insert(task)
        try journal.replaceSegments(id, with: [Segment(start: 0, end: 10)])

        #expect(try journal.remove([id, TaskID(999)]) == 1)

        let leftovers = try journal.read { db in
            try Int.fetchOne(db, sql: """
                SELECT (SELECT COUNT(*) FROM task_url) + (SELECT COUNT(*) FROM task_header)
                     + (SELECT COUNT(*) FROM segment)
                """)
        }
        #expect(leftovers == 0)
    }

    @Test func stateChangesFollowTheTable() throws {
        // Given a queued task
        let temp = try TemporaryDirectory()
        let clock = FixedClock()
        let journal = try openJournal(in: temp, clock: clock)
        let id = try journal.insert(download("https://example.com/a"))

        // When it runs and finishes
        clock.advance(5)
        try journal.updateState(id, to: .running)
        let started = clock.now()
        clock.advance(5)
        try journal.updateState(id, to: .done)

        // Then the timestamps follow, and a done task cannot run again
        let record = try #require(try journal.task(id))
        #expect(record.state == .done)
        #expect(record.startedAt == started)
        #expect(record.finishedAt == clock.now())
        #expect(throws: QueueError.journal(.invalidTransition(id, from: .done, to: .running))) {
            try journal.updateState(id, to: .running)
        }
        #expect(throws: QueueError.journal(.taskNotFound(TaskID(42)))) {
            try journal.updateState(TaskID(42), to: .running)
        }
    }

    @Test func pausedTasksAreInsertedPausedAndNotRunnable() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let paused = try journal.insert(download("https://example.com/p", paused: true))
        let queued = try journal.insert(download("https://example.com/q"))

        #expect(try journal.task(paused)?.state == .paused)
        #expect(try journal.nextRunnable(limit: 10).map(\.id) == [queued])
        try journal.updateState(paused, to: .queued)
        #expect(try journal.nextRunnable(limit: 10).map(\.id) == [paused, queued].sorted())
    }

    @Test func nextRunnableFollowsPriorityThenPositionAndSkipsExcluded() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try journal.insert([
            download("https://example.com/1"),
            download("https://example.com/2", priority: 5),
            download("https://example.com/3"),
            download("https://example.com/4", priority: 5),
        ])
        try journal.updateState(ids[2], to: .running)

        #expect(try journal.nextRunnable(limit: 10).map(\.id) == [ids[1], ids[3], ids[0]])
        #expect(try journal.nextRunnable(limit: 2, excluding: [ids[1]]).map(\.id) == [ids[3], ids[0]])
    }

    @Test func nextRunnableSkipsManyExcludedTasksAcrossPagesAndPriorities() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        // 60 tasks in three priority bands (2, 1, 0), 20 each, inserted interleaved.
        let ids = try journal.insert((0..<60).map { try download("https://example.com/\($0)", priority: 2 - $0 % 3) })
        let order = (0..<60).sorted { ($0 % 3, $0) < ($1 % 3, $1) }.map { ids[$0] }
        // Every task of the top band and every other task of the middle one are excluded: more
        // than a page (16) of excluded tasks comes first.
        let excluded = Set(order.prefix(20) + order[20..<40].enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
        let expected = order.filter { !excluded.contains($0) }

        #expect(try journal.nextRunnable(limit: 15, excluding: excluded).map(\.id) == Array(expected.prefix(15)))
        #expect(try journal.nextRunnable(limit: 100, excluding: excluded).map(\.id) == expected)
        #expect(try journal.nextRunnable(limit: 100, excluding: Set(ids)).isEmpty)
    }

    @Test func nextRunnableGoesOnAfterAPlaceInQueueOrder() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        // 40 tasks in two priority bands (1, 0), inserted interleaved.
        let ids = try journal.insert((0..<40).map { try download("https://example.com/\($0)", priority: 1 - $0 % 2) })
        let all = try journal.nextRunnable(limit: 100)
        let order = all.map(\.id)
        #expect(order.count == 40)

        // After the last task of the top band: the other band, in order; after a place within
        // a band: the rest of it, then the next band; after the last task: nothing.
        #expect(try journal.nextRunnable(limit: 100, excluding: [], after: Journal.QueuePlace(all[19])).map(\.id)
            == Array(order[20...]))
        #expect(try journal.nextRunnable(limit: 5, excluding: [], after: Journal.QueuePlace(all[7])).map(\.id)
            == Array(order[8..<13]))
        #expect(try journal.nextRunnable(limit: 100, excluding: [order[30]], after: Journal.QueuePlace(all[25])).map(\.id)
            == Array(order[26...]).filter { $0 != order[30] })
        #expect(try journal.nextRunnable(limit: 100, excluding: [], after: Journal.QueuePlace(all[39])).isEmpty)
        #expect(Set(order) == Set(ids))
    }

    @Test func countsByStateCountsEveryState() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try journal.insert((0..<5).map { try download("https://example.com/\($0)") })
        try journal.updateState(ids[0], to: .running)
        try journal.updateState(ids[1], to: .paused)
        try journal.updateState(ids[2], to: .cancelled)

        let counts = try journal.countsByState()

        #expect(counts == [.queued: 2, .running: 1, .paused: 1, .done: 0, .failed: 0, .cancelled: 1])
    }

    @Test func requeueInterruptedRecoversRunningTasks() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try journal.insert((0..<3).map { try download("https://example.com/\($0)") })
        try journal.updateState(ids[0], to: .running)
        try journal.updateState(ids[1], to: .running)
        try journal.updateState(ids[1], to: .failed)

        #expect(try journal.requeueInterrupted() == 1)

        #expect(try journal.task(ids[0])?.state == .queued)
        #expect(try journal.task(ids[1])?.state == .failed)
    }

    @Test func checkpointsAttemptsAndFinalPath() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let id = try journal.insert(download("https://example.com/a"))
        let resume = ResumeRecord(
            finalURL: try TransferURL(validating: "https://cdn.example/a"),
            etag: "\"abc\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT",
            totalLength: nil, durableOffset: 4096)

        try journal.recordCheckpoint(id, resume)
        try journal.recordAttempt(id, error: "connection reset")
        try journal.recordAttempt(id, error: nil)
        try journal.recordFinalPath(id, "/downloads/a")

        let record = try #require(try journal.task(id))
        #expect(record.resume == resume)
        #expect(record.attempts == 2)
        #expect(record.lastError == nil)
        #expect(record.finalPath == "/downloads/a")
        #expect(throws: QueueError.journal(.taskNotFound(TaskID(77)))) {
            try journal.recordCheckpoint(TaskID(77), resume)
        }
    }

    @Test func segmentsAreReplacedAndCheckpointed() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let id = try journal.insert(download("https://example.com/a"))

        try journal.replaceSegments(id, with: [Segment(start: 500, end: nil), Segment(start: 0, end: 500)])
        try journal.recordSegmentCheckpoint(id, start: 500, durableOffset: 700)

        #expect(try journal.segments(of: id) == [
            Segment(start: 0, end: 500, durableOffset: 0),
            Segment(start: 500, end: nil, durableOffset: 700),
        ])
        try journal.replaceSegments(id, with: [])
        #expect(try journal.segments(of: id).isEmpty)
    }

    @Test func revisionGrowsWithQueueChangesButNotCheckpoints() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let start = try journal.revision()

        let id = try journal.insert(download("https://example.com/a"))
        let afterInsert = try journal.revision()
        try journal.recordCheckpoint(id, ResumeRecord(durableOffset: 10))
        let afterCheckpoint = try journal.revision()
        try journal.updateState(id, to: .paused)

        #expect(afterInsert > start)
        #expect(afterCheckpoint == afterInsert)
        #expect(try journal.revision() > afterCheckpoint)
    }

    @Test func anotherConnectionSeesAnotherWritersChanges() throws {
        // Given two journals on one file, as the engine and `ferry add` would have
        let temp = try TemporaryDirectory()
        let engine = try openJournal(in: temp)
        let adder = try openJournal(in: temp)
        let seen = try engine.revision()

        // When the other one adds a task
        let id = try adder.insert(download("https://example.com/new"))

        // Then the engine's next poll notices it
        #expect(try engine.revision() > seen)
        #expect(try engine.nextRunnable(limit: 1).map(\.id) == [id])
    }
}
