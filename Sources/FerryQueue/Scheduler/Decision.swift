import FerryKit

/// `Decision` is what an ended attempt means for its task.
struct Decision: Equatable {
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
