import FerryKit

/// `SchedulerEvent` is what a `Scheduler` publishes about the queue it runs.
///
/// `started` and `ended` come in pairs for each transfer attempt, in the order they
/// happened (a task handed ahead of need and taken back before it started has only its
/// `ended`, `queued`); `progress` is FerryKit's coalesced snapshot (at most ~10 per second per task).
public enum SchedulerEvent: Sendable {
    /// `started` means a transfer attempt of the task began; its journal row is marked
    /// `running` by the scheduler's next commit with room (at most `--max-concurrent` rows).
    case started(TaskID)
    /// `progress` is the latest progress snapshot of a running task.
    case progress(TaskID, TransferProgress)
    /// `transferred` means the network part of the attempt is over (every byte arrived, or the
    /// connection failed): its row stays as it is (`running` once marked) while its file is
    /// made durable and named, but no longer counts against `--max-concurrent` or the per-host limit; `ended` follows.
    case transferred(TaskID)
    /// `ended` means the attempt ended and the task is now in the given state: `done`,
    /// `failed`, `paused` (by the user, a stop, or a full disk), `cancelled`, or `queued`
    /// (it will be retried, or another mirror tried). `error` is the masked message, `nil`
    /// on success or when stopped on purpose. `path` is the file of a download now `done`
    /// (where it was saved, so a follower need not read it from the journal), else `nil`.
    case ended(TaskID, TaskState, error: String?, path: String? = nil)
    /// `willRetry` means the attempt that is about to end (`ended`, state `queued`, follows)
    /// failed and the task is tried again after `delay` seconds.
    case willRetry(TaskID, delay: Double)
    /// `note` is what a download from several sources did about one of them, in words ("...
    /// answered 404; trying the next mirror"): a line its follower shows.
    case note(TaskID, String)
    /// `journalChanged` means rows changed (this scheduler's or another process's): views
    /// of the queue should be read again.
    case journalChanged
}
