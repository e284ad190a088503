/// `MoveDirection` says where a task moves in the queue.
public enum MoveDirection: Sendable, Hashable {
    /// Towards the front of the queue (starts sooner).
    case up
    /// Towards the back of the queue (starts later).
    case down
}
