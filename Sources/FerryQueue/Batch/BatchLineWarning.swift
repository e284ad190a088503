/// `BatchLineWarning` reports an option of a batch file that Ferry reads but does not apply
/// (an aria2 option without a meaning here yet); the entry is kept. A reader warns once per
/// option name.
public struct BatchLineWarning: Sendable, Hashable, CustomStringConvertible {
    /// `line` is the number (from 1) of the option's line.
    public let line: Int
    /// `option` is the option's name.
    public let option: String
    /// `reason` says why it is not applied.
    public let reason: String

    /// `description` is the message for the user, for example
    /// "line 7: split is ignored (one connection per file); the entry is kept".
    public var description: String {
        "line \(line): \(option) is ignored (\(reason)); the entry is kept"
    }
}
