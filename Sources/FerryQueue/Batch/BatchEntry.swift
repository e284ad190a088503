/// `BatchEntry` is one valid entry of a batch file: a task ready to insert and the line
/// its URIs were on.
public struct BatchEntry: Sendable, Hashable {
    /// `line` is the number (from 1) of the entry's URI line.
    public let line: Int
    /// `task` is the entry merged with the `BatchDefaults`.
    public let task: NewTask
}
