import FerryQueue

/// `TUICommand` is a request from the user to the application, produced by the front end.
///
/// Commands are only produced complete and validated: a dialog emits nothing until all its
/// fields pass. The application applies them to its queue and reports the result by posting
/// updated rows (and, if useful, a `TUIEvent.message`).
public enum TUICommand: Sendable, Hashable {
    /// `addDownload`: enqueue a download.
    case addDownload(DownloadRequest)
    /// `addUpload`: enqueue an upload.
    case addUpload(UploadRequest)
    /// `pause`: pause one queued or running task.
    case pause(TaskRow.ID)
    /// `resume`: resume one paused task.
    case resume(TaskRow.ID)
    /// `pauseAll`: pause every queued or running task.
    case pauseAll
    /// `resumeAll`: resume every paused task.
    case resumeAll
    /// `retry`: start a failed task again.
    case retry(TaskRow.ID)
    /// Remove a task; `deleteFile` also deletes its downloaded or partial file.
    case remove(TaskRow.ID, deleteFile: Bool)
    /// `purge`: remove every task in these states from the queue (done, failed or
    /// cancelled tasks only; files are kept).
    case purge(Set<TaskState>)
    /// `move`: move a task one place in the queue.
    case move(TaskRow.ID, MoveDirection)
    /// `quit`: the user closed the front end; the application should wind down.
    case quit
    /// `setLimits`: change the engine's concurrency limits.
    case setLimits(TransferLimits)
    /// `setTaskLimit`: change one download's own speed limit (`nil`: none), live.
    case setTaskLimit(TaskRow.ID, Int64?)
    /// `retarget`: give a download new URLs (the first tried first), keeping its bytes only
    /// where the new source serves the same file (`Journal.retarget`).
    case retarget(TaskRow.ID, [TransferURL])
    /// `quitAndStop`: the front end quits and the engine stops (its transfers stay queued).
    case quitAndStop
}
