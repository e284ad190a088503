import FerryKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `JournalOpeningGate` lets one process at a time open a journal: create it, check it,
/// migrate it, or set it aside (`Journal.open`). It is an exclusive `flock` on
/// `<journal>.opening` (mode 0600), held only while the journal is opened.
///
/// Without it, a `ferry list` started with a `ferry daemon` on a new state directory (or after
/// an upgrade that migrates the schema) ran the migrations at the same time as the daemon: one
/// of them met the other's half-made schema ("duplicate column name", "not a Ferry journal")
/// and set the journal aside as damaged, or the daemon exited. SQLite serializes each write,
/// not the check-then-migrate sequence.
///
/// Threads: runs on the opening thread; the lock is released before it returns.
enum JournalOpeningGate {
    /// `pollInterval` is how often, in microseconds, a process waiting for the gate tries again.
    static let pollInterval: useconds_t = 5_000

    /// `passing(_:timeout:_:)` runs `body` holding the gate of the journal at `path`, waiting
    /// at most `timeout` for another process's opening to finish (then `.journal(.busy)`).
    /// Where the gate file cannot be made (a read-only directory) `body` runs without it:
    /// such a journal is created or migrated by no one, so there is nothing to keep apart.
    static func passing<T>(_ path: String, timeout: Duration, _ body: () throws(QueueError) -> T) throws(QueueError) -> T {
        let fd = SystemCall.open(path + ".opening", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return try body() }
        defer { Glibc.close(fd) }
        let deadline = ContinuousClock.now + timeout
        while SystemCall.retrying({ flock(fd, LOCK_EX | LOCK_NB) }) != 0 {
            guard errno == EWOULDBLOCK else { return try body() }
            guard ContinuousClock.now < deadline else { throw .journal(.busy(path: path)) }
            usleep(pollInterval)
        }
        defer { _ = SystemCall.retrying { flock(fd, LOCK_UN) } }
        return try body()
    }
}
