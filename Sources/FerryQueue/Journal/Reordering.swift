/// `Reordering` is a manual move of a task in the queue order (priority, then position).
public enum Reordering: Sendable, CaseIterable {
    /// `up` moves the task one place earlier.
    case up
    /// `down` moves the task one place later.
    case down
    /// `toTop` makes the task the first one.
    case toTop
    /// `toBottom` makes the task the last one.
    case toBottom
}
