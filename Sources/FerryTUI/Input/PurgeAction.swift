/// `PurgeAction` is the answer to the question that removes finished tasks.
public enum PurgeAction: Sendable, Hashable, CaseIterable {
    /// `removeDone`: remove every done task (files are kept).
    case removeDone
    /// `removeFailed`: remove every failed task (files are kept).
    case removeFailed
    /// `cancel`: keep the tasks.
    case cancel
}
