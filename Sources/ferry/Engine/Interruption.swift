import Glibc
import Synchronization

/// `Interruption` remembers the first SIGINT or SIGTERM of a run, so the main flow can end
/// it in order (checkpoints, journal, message) instead of the signal handler exiting mid-write.
final class Interruption: Sendable {
    private let number = Atomic<Int32>(0)

    /// Records `signal` unless one was recorded already; returns whether it was the first.
    @discardableResult
    func record(_ signal: Int32) -> Bool {
        number.compareExchange(expected: 0, desired: signal, ordering: .acquiringAndReleasing).exchanged
    }

    /// The signal received, or `nil` when none was.
    var signal: Int32? {
        let value = number.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }

    /// The exit status for the signal: 130 for SIGINT, 128 + N otherwise.
    var exitStatus: Int32? {
        signal.map { $0 == SIGINT ? 130 : 128 + $0 }
    }
}
