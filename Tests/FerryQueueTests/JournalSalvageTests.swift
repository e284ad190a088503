import Foundation
import Glibc
import GRDB
import Testing
@testable import FerryQueue

/// Fault catalogue 49: a journal with a few damaged pages is set aside, and the tasks that
/// can still be read are salvaged into the new one, exactly as they were; the user is told
/// how many, and later openings mention the journal set aside until it is deleted.
@Suite struct JournalSalvageTests {
    private let clock = FixedClock(1_735_787_045) // 2025-01-02T03:04:05Z
    private static let taskCount = 600

    /// `SplitMix64` is a small seeded generator, so every run damages the same places.
    private struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// `makeJournal(in:)` builds a journal of `taskCount` varied tasks through the queue's own
    /// code (mirrors, headers, checksums, uploads, priorities, paused, checkpoints), closes it
    /// with everything in the main file, and returns the tasks as stored, by id.
    private func makeJournal(in temp: TemporaryDirectory) throws -> [TaskID: TaskRecord] {
        let journal = try openJournal(in: temp, clock: clock)
        var tasks: [NewTask] = []
        for index in 0..<Self.taskCount {
            var urls = [try TransferURL(validating: "https://files\(index % 7).example.com/data/archive-\(index).tar.gz")]
            if index % 5 == 0 { urls.append(try TransferURL(validating: "https://mirror.example.org/archive-\(index).tar.gz")) }
            var headers: [HeaderField] = []
            if index % 3 == 0 { headers.append(try HeaderField(name: "Authorization", value: "Bearer token-\(index)")) }
            if index % 4 == 0 { headers.append(try HeaderField(name: "X-Request", value: "req-\(index)")) }
            let upload = index % 17 == 0
                ? UploadSpec(fields: [.init(name: "note", value: "n\(index)")], files: [.init(fieldName: "file", path: "/srv/up/\(index).bin")])
                : nil
            let spec = TaskSpec(
                urls: urls, headers: headers, destinationDirectory: "/srv/downloads/\(index % 3)",
                requestedName: index % 6 == 0 ? "named-\(index).bin" : nil,
                checksum: index % 9 == 0 ? try Checksum(parsing: "sha-256=\(String(repeating: "ab", count: 32))") : nil,
                upload: upload)
            tasks.append(NewTask(spec: spec, priority: index % 11 == 0 ? 3 : 0, startsPaused: index % 8 == 0))
        }
        let ids = try journal.insert(tasks)
        for id in ids where id.rawValue % 10 == 1 {
            try journal.recordCheckpoint(id, ResumeRecord(
                finalURL: try TransferURL(validating: "https://cdn.example.com/\(id)"), etag: "\"e\(id)\"",
                lastModified: nil, totalLength: 1 << 30, durableOffset: id.rawValue * 4096))
        }
        _ = try journal.identity()
        var stored: [TaskID: TaskRecord] = [:]
        try journal.forEachTask { stored[$0.id] = $0 }
        _ = try journal.pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        try journal.close()
        return stored
    }

    @Test func aFewDamagedKilobytesCostOnlyTheTasksOnThem() throws {
        // Given a real journal of 600 tasks.
        let temp = try TemporaryDirectory()
        let original = try makeJournal(in: temp)
        let pristine = try Data(contentsOf: URL(fileURLWithPath: temp.file("journal.sqlite")))
        let identity = try pristineIdentity(temp.file("journal.sqlite"))
        var generator = SplitMix64(state: 24)
        var recoveredShares: [Double] = []
        var undamagedOpenings = 0
        var identityChanges = 0
        // SQLite keeps no checksum of its pages: random bytes that fall inside a stored value
        // whose record survives read back as another value, which no reader can tell. Such
        // tasks are counted; they must stay rare.
        var silentChanges = 0
        var keptInAll = 0

        for trial in 0..<40 {
            // When 1 to 4 KiB somewhere in it are overwritten with random bytes.
            let directory = try TemporaryDirectory()
            var bytes = pristine
            let length = Int.random(in: 1024...4096, using: &generator)
            let offset = Int.random(in: 0...(bytes.count - length), using: &generator)
            for index in offset..<(offset + length) {
                bytes[index] = UInt8.random(in: 0...255, using: &generator)
            }
            let path = directory.file("journal.sqlite")
            try bytes.write(to: URL(fileURLWithPath: path))

            // And the journal is opened.
            let opening = try Journal.open(at: path, now: { clock.now() })
            defer { try? opening.journal.close() }

            // Then it opens, and every task it holds is a task of the original, as it was (but
            // for its times, and rare values changed where SQLite cannot tell).
            var kept: [TaskRecord] = []
            try opening.journal.forEachTask { kept.append($0) }
            guard let recovery = opening.recovery else {
                // The damage fell where SQLite does not look (free space, the ends of pages).
                undamagedOpenings += 1
                continue
            }
            var paused = 0
            for record in kept {
                guard let before = original[record.id] else {
                    Issue.record("trial \(trial): task \(record.id) was not in the original")
                    continue
                }
                if record.lastError == JournalSalvage.incompleteNote {
                    // Some of its child rows may be lost: paused, never run without them.
                    paused += 1
                    #expect(record.state == .paused && before.state != .done, "trial \(trial): \(record.id) is \(record.state)")
                    #expect(Set(record.spec.urls).isSubset(of: before.spec.urls), "trial \(trial)")
                    #expect(Set(record.spec.headers).isSubset(of: before.spec.headers), "trial \(trial)")
                    #expect(record.resume == before.resume && record.position == before.position, "trial \(trial)")
                } else if Self.withoutStamps(record) != Self.withoutStamps(before) {
                    silentChanges += 1
                }
                keptInAll += 1
            }
            // And the message says how many tasks were recovered, which is what the journal holds.
            #expect(recovery.recoveredTasks == kept.count, "trial \(trial)")
            #expect(recovery.pausedTasks == paused, "trial \(trial)")
            if kept.count > 0 {
                #expect(recovery.message.contains("\(kept.count) task"), "trial \(trial): \(recovery.message)")
                if try opening.journal.identity() != identity { identityChanges += 1 }
            }
            #expect(FileManager.default.fileExists(atPath: recovery.movedAsideTo))
            // And the new journal takes new tasks after the old ones.
            let added = try opening.journal.insert(download("https://example.com/after"))
            if kept.count > 0 {
                #expect(original.keys.allSatisfy { $0 < added }, "trial \(trial): an old id was given again")
            }
            recoveredShares.append(Double(kept.count) / Double(original.count))
        }

        // Overall, most of the queue survives most damage.
        let damaged = recoveredShares.count
        let mostlyRecovered = recoveredShares.filter { $0 >= 0.8 }.count
        #expect(damaged + undamagedOpenings == 40)
        #expect(damaged >= 10, "too few trials hit the journal's structure to judge (\(damaged))")
        #expect(silentChanges * 100 <= keptInAll, "\(silentChanges) of \(keptInAll) tasks kept differ from the original")
        // The identity is lost only with its own page.
        #expect(identityChanges <= 2, "the journal's identity changed in \(identityChanges) trials")
        #expect(Double(mostlyRecovered) >= 0.8 * Double(damaged),
                "only \(mostlyRecovered) of \(damaged) damaged journals kept 80 % of their tasks: \(recoveredShares)")
    }

    @Test func anOlderJournalSetAsideIsMentionedUntilItIsDeleted() throws {
        // Given a journal with a damaged task page, opened once (set aside, tasks salvaged).
        let temp = try TemporaryDirectory()
        _ = try makeJournal(in: temp)
        let path = temp.file("journal.sqlite")
        try damageFirstTaskLeaf(path)
        let first = try Journal.open(at: path, now: { clock.now() })
        let recovery = try #require(first.recovery)
        #expect(recovery.recoveredTasks > Self.taskCount / 2)
        #expect(recovery.recoveredTasks < Self.taskCount)
        #expect(recovery.message == "journal was damaged; moved aside to \(path).corrupt-20250102T030405Z; "
                + "\(recovery.recoveredTasks) tasks recovered into a new journal (the rest could not be read)")
        try first.journal.close()

        // When it is opened again, then the journal set aside is mentioned.
        let second = try Journal.open(at: path, now: { clock.now() })
        #expect(second.recovery == nil)
        #expect(second.setAside == [recovery.movedAsideTo])
        #expect(second.message == "an older journal was set aside at \(recovery.movedAsideTo) (damaged); delete it when you no longer need it")
        try second.journal.close()

        // When the user deletes it, then nothing more is said.
        for suffix in ["", "-wal", "-shm"] {
            unlink(recovery.movedAsideTo + suffix)
        }
        let third = try Journal.open(at: path, now: { clock.now() })
        #expect(third.message == nil)
        #expect(try third.journal.countsByState().values.reduce(0, +) == recovery.recoveredTasks)
        try third.journal.close()
    }

    @Test func anotherApplicationsDamagedDatabaseIsNotSalvaged() throws {
        // Given another application's database with a task table, damaged.
        let temp = try TemporaryDirectory()
        let path = temp.file("journal.sqlite")
        let other = try DatabaseQueue(path: path)
        try other.write { db in
            try db.execute(sql: "CREATE TABLE task (id INTEGER PRIMARY KEY, title TEXT)")
            for index in 0..<2000 {
                try db.execute(sql: "INSERT INTO task (title) VALUES (?)", arguments: ["title \(index)"])
            }
        }
        try other.close()
        try damageFirstTaskLeaf(path)

        // When it is opened, then it is set aside and nothing of it is taken.
        let opening = try Journal.open(at: path, now: { clock.now() })
        #expect(opening.recovery?.recoveredTasks == 0)
        #expect(try opening.journal.countsByState().values.reduce(0, +) == 0)
    }

    /// `withoutStamps(_:)` is `record` without the times it was made and changed: SQLite keeps
    /// no checksum of its pages, and random bytes that fell inside a stored time (the record
    /// around it intact) read back as another time, which no reader can tell.
    private static func withoutStamps(_ record: TaskRecord) -> TaskRecord {
        var record = record
        let zero = Date(timeIntervalSince1970: 0)
        record.createdAt = zero
        record.updatedAt = zero
        record.startedAt = nil
        record.finishedAt = nil
        return record
    }

    /// `pristineIdentity(_:)` reads the journal's identity without opening it as a journal.
    private func pristineIdentity(_ path: String) throws -> Int64? {
        let queue = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        return try queue.read { try Int64.fetchOne($0, sql: "SELECT value FROM journal_meta WHERE key = 'identity'") }
    }

    /// `damageFirstTaskLeaf(_:)` overwrites the page holding the task table's first rows with
    /// garbage (found with the `dbstat` table before the damage).
    private func damageFirstTaskLeaf(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        let (page, size) = try queue.read { db in
            (try Int64.fetchOne(db, sql: "SELECT pageno FROM dbstat WHERE name = 'task' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1"),
             try Int64.fetchOne(db, sql: "PRAGMA page_size"))
        }
        try queue.close()
        let leaf = try #require(page)
        let pageSize = try #require(size)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64((leaf - 1) * pageSize + 8))
        handle.write(Data((0..<2048).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
    }
}
