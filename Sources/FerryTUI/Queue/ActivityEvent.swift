import FerryKit
import FerryQueue

/// `ActivityEvent` is what the transfer engine (in the front end's process, or the daemon it
/// is attached to) reports to `QueueController`: tasks starting, their live progress, their
/// end, changes it made to the journal, and its own end.
public enum ActivityEvent: Sendable {
    /// `started`: the task began an attempt (its journal row is now `running`).
    case started(TaskID)
    /// `progress`: the latest progress of a running task, coalesced by the engine.
    case progress(TaskID, TransferProgress)
    /// `ended`: the attempt ended in `state`, with the masked error message if it failed.
    case ended(TaskID, TaskState, error: String?)
    /// `note`: what a download from several sources did about one of them, in words ("...
    /// answered 404; trying the next mirror"), for the message line.
    case note(TaskID, String)
    /// `journalChanged`: the engine changed the queue in a way other than the above.
    case journalChanged
    /// `limits`: the engine's concurrency limits, at attach and whenever they change.
    case limits(TransferLimits)
    /// `engineStopped`: the engine is gone (a daemon stopped or could not be reached); the
    /// message says what happened. Nothing transfers until the front end is opened again.
    case engineStopped(String)
}
