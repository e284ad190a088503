/// `StopQuestion` is the question asked before quitting stops the transfers: how many were
/// running and queued when it was asked.
public struct StopQuestion: Sendable, Hashable {
    /// `running` is the number of running tasks.
    public var running: Int
    /// `queued` is the number of queued tasks.
    public var queued: Int

    /// `init(running:queued:)` makes a question.
    public init(running: Int, queued: Int) {
        self.running = running
        self.queued = queued
    }
}
