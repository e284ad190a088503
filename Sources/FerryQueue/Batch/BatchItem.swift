/// `BatchItem` is what `BatchInputReader.next()` yields: a valid entry or a line error.
public enum BatchItem: Sendable, Hashable {
    /// `entry` is a task to enqueue.
    case entry(BatchEntry)
    /// `error` is a bad line; its entry was skipped.
    case error(BatchLineError)
    /// `warning` is an option read but not applied; its entry is kept.
    case warning(BatchLineWarning)
}
