import FerryKit
import Synchronization

/// `TaskFailures` is the kind of each task's last failure (`FailureKind`), kept by the
/// scheduler that ran it, for those who say more than the journal's message: a daemon's
/// answers (aria2's `errorCode`) and the exit status of a client that followed the task.
///
/// An entry is set when an attempt leaves its task `failed`, or `paused` by an error (a full
/// disk), and dropped when a later attempt of the task ends otherwise. Safe from any thread.
public final class TaskFailures: Sendable {
    private let kinds = Mutex<[TaskID: FailureKind]>([:])

    /// `init()` makes an empty table.
    public init() {}

    /// `record(_:_:)` sets the kind of `id`'s last failure, or drops it (`nil`).
    public func record(_ id: TaskID, _ kind: FailureKind?) {
        kinds.withLock { $0[id] = kind }
    }

    /// `kind(of:)` is the kind of `id`'s last failure, `nil` when its last attempt did not fail.
    public func kind(of id: TaskID) -> FailureKind? {
        kinds.withLock { $0[id] }
    }
}
