/// `PurgeQuestion` is the question that removes finished tasks from the list: how many are
/// done and how many failed when it was asked.
public struct PurgeQuestion: Sendable, Hashable {
    /// `done` is the number of done tasks.
    public var done: Int
    /// `failed` is the number of failed tasks.
    public var failed: Int

    /// `init(done:failed:)` makes a question.
    public init(done: Int, failed: Int) {
        self.done = done
        self.failed = failed
    }

    /// `offers(_:)` is true when the answer has tasks to remove.
    public func offers(_ action: PurgeAction) -> Bool {
        switch action {
        case .removeDone: done > 0
        case .removeFailed: failed > 0
        case .cancel: true
        }
    }
}
