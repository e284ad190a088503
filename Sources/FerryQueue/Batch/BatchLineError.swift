/// `BatchLineError` reports a bad line of a batch file; the entry it belongs to is skipped
/// and reading goes on.
public struct BatchLineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `line` is the number (from 1) of the offending line.
    public let line: Int
    /// `reason` says what is wrong with it.
    public let reason: QueueError.InputReason
    /// `entryLine` is the URI line of the skipped entry when it differs from `line`
    /// (a bad option line); `nil` otherwise.
    public let entryLine: Int?

    /// `description` is the message for the user, for example
    /// "line 7: unsupported option 'split'; the entry on line 5 was skipped".
    public var description: String {
        var text = "line \(line): \(reason.message)"
        if let entryLine {
            text += "; the entry on line \(entryLine) was skipped"
        }
        return text
    }
}
