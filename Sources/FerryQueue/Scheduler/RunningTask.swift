import FerryKit

/// `RunningTask` is what a `Scheduler` keeps about one task handed to its session: a transfer
/// in flight, or held by the session ahead of need until it starts (`started`). A
/// class, owned by the scheduler's actor: the scheduler walks its running tasks each time it
/// fills slots, and a struct holding a whole `TaskRecord` would be copied at every step.
final class RunningTask {
    /// `record` is the task's row as read when it started.
    let record: TaskRecord
    /// `hostKey` is the `host:port` the transfer counts against.
    let hostKey: String
    /// `lane` is the session the transfer runs on.
    let lane: SessionLane
    /// `transfer` is the attempt in flight.
    let transfer: TransferTask
    /// `partPath` is the download's `.part` file; `nil` for uploads.
    let partPath: String?
    /// `intent` says why the scheduler cancelled the transfer; `nil` while it runs normally.
    var intent: StopIntent?
    /// `deletesPartialFile` is true when the task was removed with its files: its own
    /// `.part` is deleted once the cancelled attempt ended (otherwise a removed or cancelled
    /// task keeps it, as a paused one does).
    var deletesPartialFile = false
    /// `finishing` is true once the network part is over and the file is being made durable
    /// and named: the task no longer counts against the concurrency limits.
    var finishing = false
    /// `started` is true once the session started the transfer (a task handed ahead of need
    /// waits in the session until then, `queued` in the journal).
    var started = false
    /// `marked` is true once the journal records the task `running` (after it `started`; see
    /// `Scheduler.marksThatFit()`).
    var marked = false

    init(record: TaskRecord, hostKey: String, lane: SessionLane, transfer: TransferTask, partPath: String?) {
        self.record = record
        self.hostKey = hostKey
        self.lane = lane
        self.transfer = transfer
        self.partPath = partPath
    }
}
