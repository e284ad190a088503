/// `AttemptOutcome` is how one transfer attempt ended, as `Journal.recordOutcomes(_:)` stores it.
public struct AttemptOutcome: Sendable, Equatable {
    /// `id` is the task.
    public var id: TaskID
    /// `state` is the state the task should move to.
    public var state: TaskState
    /// `finalPath` is the finished file; `nil` keeps the stored one.
    public var finalPath: String?
    /// `message` is the masked error; `nil` clears it.
    public var message: String?
    /// `reply` summarises the server's reply to an upload; `nil` keeps the stored one.
    public var reply: String?
    /// `length` is the finished file's size (a download) or the body sent (an upload), stored
    /// as the task's total length; `nil` keeps the stored one.
    public var length: Int64?
    /// `savedFile` is the finished download's file as it was named; `nil` keeps the stored one.
    public var savedFile: SavedFile?

    /// `init(id:state:finalPath:message:reply:length:savedFile:)` makes an outcome.
    public init(id: TaskID, state: TaskState, finalPath: String? = nil, message: String? = nil, reply: String? = nil,
                length: Int64? = nil, savedFile: SavedFile? = nil) {
        self.id = id
        self.state = state
        self.finalPath = finalPath
        self.message = message
        self.reply = reply
        self.length = length
        self.savedFile = savedFile
    }
}
