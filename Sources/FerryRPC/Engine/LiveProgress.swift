import FerryKit
import FerryQueue
import Synchronization

/// `LiveProgress` keeps the latest progress snapshot of each running task, fed by the
/// scheduler's events, so status answers show bytes and speed that the journal (written
/// about once a second, durable bytes only) does not hold.
///
/// Its handler runs on the publishing thread (the engine's for progress): one lock, one
/// dictionary write, nothing else.
public final class LiveProgress: Sendable {
    private let snapshots = Mutex<[TaskID: TransferProgress]>([:])

    /// `init()` makes an empty table; `follow(_:)` fills it.
    public init() {}

    /// `follow(_:)` records `runner`'s progress from now on.
    public func follow(_ runner: some QueueRunner) {
        runner.observe { [self] event in
            record(event)
        }
    }

    /// `record(_:)` applies one event: a start or a snapshot sets the task's entry, an end
    /// removes it.
    public func record(_ event: SchedulerEvent) {
        switch event {
        case .started(let id):
            snapshots.withLock { $0[id] = $0[id] ?? TransferProgress() }
        case .progress(let id, let progress):
            snapshots.withLock { $0[id] = progress }
        case .ended(let id, _, _, _):
            _ = snapshots.withLock { $0.removeValue(forKey: id) }
        case .transferred, .journalChanged, .willRetry, .note:
            break
        }
    }

    /// `progress(of:)` is the latest snapshot of a running task, else `nil`.
    public func progress(of id: TaskID) -> TransferProgress? {
        snapshots.withLock { $0[id] }
    }

    /// `all()` is the latest snapshot of every running task.
    public func all() -> [TaskID: TransferProgress] {
        snapshots.withLock { $0 }
    }

    /// `totalSpeed()` is the sum of the running tasks' speeds: download and upload, in bytes
    /// per second.
    public func totalSpeed() -> (download: Int64, upload: Int64) {
        snapshots.withLock { table in
            var download: Double = 0
            var upload: Double = 0
            for progress in table.values {
                if progress.isSending { upload += progress.bytesPerSecond } else { download += progress.bytesPerSecond }
            }
            return (Int64(download), Int64(upload))
        }
    }
}
