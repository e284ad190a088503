import Foundation
import Synchronization
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
