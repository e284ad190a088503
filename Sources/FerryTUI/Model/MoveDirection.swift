/// `MoveDirection` says where a task moves in the queue.
public enum MoveDirection: Sendable, Hashable {
    /// `up`: towards the front of the queue (starts sooner).
    case up
    /// `down`: towards the back of the queue (starts later).
    case down
}
