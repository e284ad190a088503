/// `StopAction` is the answer to the question that quits and stops the transfers.
public enum StopAction: Sendable, Hashable, CaseIterable {
    /// `stop`: quit, and stop the engine (its transfers are checkpointed and stay queued).
    case stop
    /// `cancel`: stay.
    case cancel
}
