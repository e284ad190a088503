import Foundation
import GRDB
import Synchronization
import Testing
@testable import FerryQueue

/// `FixedClock` is a settable clock for journal timestamps.
final class FixedClock: Sendable {
    private let seconds: Mutex<TimeInterval>

    init(_ seconds: TimeInterval = 1_700_000_000) {
        self.seconds = Mutex(seconds)
    }

    func now() -> Date {
        Date(timeIntervalSince1970: seconds.withLock { $0 })
    }

    func advance(_ interval: TimeInterval) {
        seconds.withLock { $0 += interval }
    }
}

/// `openJournal(in:clock:)` opens a journal in a temp directory and checks nothing was recovered.
func openJournal(in temp: TemporaryDirectory, clock: FixedClock = FixedClock()) throws -> Journal {
    let opening = try Journal.open(at: temp.file("journal.sqlite"), now: { clock.now() })
    guard opening.recovery == nil else {
        throw QueueError.journal(.unreadable(path: opening.journal.path, detail: "unexpected recovery"))
    }
    return opening.journal
}

/// `download(_:priority:paused:)` is a minimal download task for `url`.
func download(_ url: String, priority: Int = 0, paused: Bool = false) throws -> NewTask {
    NewTask(spec: TaskSpec(urls: [try TransferURL(validating: url)]), priority: priority, startsPaused: paused)
}

/// `oldJournal(upTo:in:writing:)` writes a journal in `temp` as a build that knew only the
/// schema versions up to `version` did, runs `statements` in it (rows of that version), and
/// returns its path.
func oldJournal(upTo version: Int, in temp: TemporaryDirectory, writing statements: [String] = []) throws -> String {
    let path = temp.file("journal.sqlite")
    let old = try DatabaseQueue(path: path)
    try JournalSchema.migrator.migrate(old, upTo: "v\(version)")
    try old.write { db in
        for statement in statements { try db.execute(sql: statement) }
    }
    #expect(try old.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == version)
    try old.close()
    return path
}

/// `oneQueuedDownloadRows` are the rows of one queued download of `https://example.com/a`, as
/// every schema version up to 5 writes them.
let oneQueuedDownloadRows = [
    """
    INSERT INTO task (kind, state, position, created_at, updated_at, durable_offset)
    VALUES ('download', 'queued', 1, 1000, 2000, 0)
    """,
    "INSERT INTO task_url (task_id, ordinal, url) VALUES (1, 0, 'https://example.com/a')",
]
