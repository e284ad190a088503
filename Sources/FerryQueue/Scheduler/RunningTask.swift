import FerryKit

/// `RunningTask` is what a `Scheduler` keeps about one task with a transfer in flight. A
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
    /// `finishing` is true once the network part is over and the file is being made durable
    /// and named: the task no longer counts against the concurrency limits.
    var finishing = false

    init(record: TaskRecord, hostKey: String, lane: SessionLane, transfer: TransferTask, partPath: String?) {
        self.record = record
        self.hostKey = hostKey
        self.lane = lane
        self.transfer = transfer
        self.partPath = partPath
    }
}

/// `StopIntent` is why the `Scheduler` cancelled a transfer, and so what its task becomes.
enum StopIntent: Equatable {
    /// `pause` leaves the task `paused`.
    case pause
    /// `requeue` puts the task back to `queued` (the scheduler is stopping).
    case requeue
    /// `cancel` leaves the task `cancelled`.
    case cancel
    /// `removed` means the row is gone; nothing is recorded.
    case removed
}

/// `Decision` is what an ended attempt means for its task.
struct Decision {
    /// `state` is the task's next state.
    var state: TaskState
    /// `finalPath` is the finished file; `nil` if none.
    var finalPath: String?
    /// `message` is the masked error; `nil` on success or a deliberate stop.
    var message: String?
    /// `retryDelay` is the seconds to wait before the next attempt; `nil` to run when a slot frees.
    var retryDelay: Double?
    /// `failure` is the kind of failure that ended the attempt; `nil` for none.
    var failure: FailureKind?
    /// `reply` summarises an upload's reply; `nil` for downloads.
    var reply: String?
    /// `length` is the finished file's size or the sent body's; `nil` if none.
    var length: Int64?

    init(state: TaskState, finalPath: String? = nil, message: String? = nil, retryDelay: Double? = nil, failure: FailureKind? = nil,
         reply: String? = nil, length: Int64? = nil) {
        self.reply = reply
        self.length = length
        self.state = state
        self.finalPath = finalPath
        self.message = message
        self.retryDelay = retryDelay
        self.failure = failure
    }
}
