import Foundation
import Glibc
import GRDB
import Testing
@testable import FerryQueue

@Suite struct JournalRecoveryTests {
    private let clock = FixedClock(1_735_787_045) // 2025-01-02T03:04:05Z

    @Test func garbageIsMovedAsideWithItsCompanionsAndAFreshJournalStarts() throws {
        // Given a journal path holding text, with -wal and -shm beside it
        let temp = try TemporaryDirectory()
        let path = try temp.write("this is not a database\n", to: "journal.sqlite")
        try temp.write("wal", to: "journal.sqlite-wal")
        try temp.write("shm", to: "journal.sqlite-shm")

        // When it is opened
        let opening = try Journal.open(at: path, now: { clock.now() })

        // Then the old files are moved aside, the user is told, and the queue is empty
        let aside = "\(path).corrupt-20250102T030405Z"
        #expect(opening.recovery?.movedAsideTo == aside)
        #expect(opening.message == "journal was unreadable; moved aside to \(aside); starting with an empty queue")
        #expect(try String(contentsOfFile: aside, encoding: .utf8) == "this is not a database\n")
        #expect(try String(contentsOfFile: aside + "-wal", encoding: .utf8) == "wal")
        #expect(try String(contentsOfFile: aside + "-shm", encoding: .utf8) == "shm")
        #expect(try opening.journal.countsByState().values.reduce(0, +) == 0)
        #expect(try opening.journal.insert(download("https://example.com/a")) > TaskID(0))
    }

    @Test func aJournalTruncatedToHalfIsDetected() throws {
        // Given a real journal with many tasks, closed, then cut to half its size
        let temp = try TemporaryDirectory()
        let path = temp.file("journal.sqlite")
        let journal = try openJournal(in: temp)
        try journal.insert((0..<5000).map { try download("https://example.com/\($0)") })
        _ = try journal.pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        try journal.close()
        #expect((try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0 == 0)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size / 2)) == 0)

        // When it is opened
        let opening = try Journal.open(at: path, now: { clock.now() })

        // Then it is set aside and a fresh journal is used
        let recovery = try #require(opening.recovery)
        #expect(FileManager.default.fileExists(atPath: recovery.movedAsideTo))
        #expect(try opening.journal.countsByState()[.queued] == 0)
    }

    @Test func aSecondRecoveryInTheSameSecondGetsAnotherName() throws {
        let temp = try TemporaryDirectory()
        let path = try temp.write("garbage one", to: "journal.sqlite")
        let first = try Journal.open(at: path, now: { clock.now() })
        try first.journal.close()
        try temp.write("garbage two", to: "journal.sqlite")
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")

        let second = try Journal.open(at: path, now: { clock.now() })

        #expect(second.recovery?.movedAsideTo == "\(path).corrupt-20250102T030405Z-1")
    }

    @Test func anotherApplicationsDatabaseIsNotTreatedAsAJournal() throws {
        let temp = try TemporaryDirectory()
        let path = temp.file("journal.sqlite")
        let other = try DatabaseQueue(path: path)
        try other.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        try other.close()

        let opening = try Journal.open(at: path, now: { clock.now() })

        #expect(opening.recovery?.detail == "not a Ferry journal")
    }

    @Test func aNewerSchemaIsRefusedAndLeftUntouched() throws {
        // Given a journal written by a future version
        let temp = try TemporaryDirectory()
        let path = temp.file("journal.sqlite")
        let journal = try openJournal(in: temp)
        try journal.insert(download("https://example.com/a"))
        let future = Journal.schemaVersion + 1
        try journal.write { try $0.execute(sql: "PRAGMA user_version = \(future)") }
        try journal.close()

        // When it is opened
        #expect(throws: QueueError.journal(.newerSchema(path: path, found: future, supported: Journal.schemaVersion))) {
            try Journal.open(at: path)
        }

        // Then it is still there, with its task and version
        let check = try DatabaseQueue(path: path)
        let (version, tasks) = try check.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA user_version"), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM task"))
        }
        #expect(version == future)
        #expect(tasks == 1)
        let moved = try FileManager.default.contentsOfDirectory(atPath: temp.path).filter { $0.contains("corrupt") }
        #expect(moved.isEmpty)
    }

    @Test func theFailPolicyLeavesAnUnreadableJournalAlone() throws {
        let temp = try TemporaryDirectory()
        let path = try temp.write([0x00, 0xFF, 0x13, 0x37], to: "journal.sqlite")

        #expect(throws: QueueError.journal(.unreadable(path: path, detail: "not an SQLite database"))) {
            try Journal.open(at: path, onCorruption: .fail)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data([0x00, 0xFF, 0x13, 0x37]))
    }

    @Test func anEmptyFileIsAFreshJournal() throws {
        let temp = try TemporaryDirectory()
        let path = try temp.write("", to: "journal.sqlite")

        let opening = try Journal.open(at: path)

        #expect(opening.recovery == nil)
        #expect(try opening.journal.revision() == 0)
    }

    @Test func theJournalAndItsCompanionsAreOwnerOnly() throws {
        // Given an existing journal file readable by everyone
        let temp = try TemporaryDirectory()
        let path = temp.file("journal.sqlite")
        #expect(close(open(path, O_CREAT | O_WRONLY, 0o644)) == 0)
        #expect(chmod(path, 0o644) == 0)

        // When it is opened and written
        let journal = try openJournal(in: temp)
        try journal.insert(download("https://example.com/a"))

        // Then it and its WAL files are 0600
        #expect(permissions(path) == 0o600)
        #expect(permissions(path + "-wal") == 0o600)
        #expect(permissions(path + "-shm") == 0o600)
    }

    @Test func aFullDatabaseIsATypedErrorAndLeavesTheJournalConsistent() throws {
        // Given a journal whose writer may not grow past its current size
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        try journal.insert(download("https://example.com/first"))
        try journal.pool.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }

        // When a large batch is inserted
        #expect(throws: QueueError.journal(.diskFull(path: journal.path))) {
            try journal.insert((0..<20_000).map { try download("https://example.com/\($0)") })
        }

        // Then nothing of the batch is stored, and the journal still works
        #expect(try journal.countsByState()[.queued] == 1)
        #expect(try journal.nextRunnable(limit: 5).count == 1)
    }

    @Test func aReadOnlyJournalIsATypedError() throws {
        // Given a journal whose writer connection refuses writes
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        try journal.pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA query_only = 1") }

        // When a task is inserted, then the error says the journal is read-only
        #expect(throws: QueueError.journal(.readOnly(path: journal.path))) {
            try journal.insert(download("https://example.com/a"))
        }
    }

    @Test func storageErrorsConvertToTypedErrors() {
        let path = "/state/journal.sqlite"
        #expect(QueueError(converting: DatabaseError(resultCode: .SQLITE_FULL), path: path)
            == .journal(.diskFull(path: path)))
        #expect(QueueError(converting: DatabaseError(resultCode: .SQLITE_READONLY), path: path)
            == .journal(.readOnly(path: path)))
        #expect(QueueError(converting: DatabaseError(resultCode: .SQLITE_BUSY), path: path)
            == .journal(.busy(path: path)))
        #expect(QueueError(errno: ENOSPC, path: path) == .journal(.diskFull(path: path)))
        #expect(QueueError(errno: EROFS, path: path) == .journal(.readOnly(path: path)))
        #expect(QueueError(errno: EACCES, path: path) == .journal(.permissionDenied(path: path)))
    }
}
