/// `FailureKind` is what kind of failure a ``FerryError`` is, for those who rank failures
/// (a queue's summary) and those who turn them into something of their own (the command
/// line's exit statuses, which live there and nowhere else).
public enum FailureKind: Int, Sendable, Hashable, Comparable {
    /// The transfer failed: the network, the server's reply, a cancelled transfer.
    case transfer = 1
    /// The user's input was wrong: a URL, a header, an option.
    case input
    /// The bytes did not have the expected digest.
    case checksum
    /// A local file could not be read or written (permissions, a full disk).
    case localFile

    public static func < (lhs: FailureKind, rhs: FailureKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension FerryError {
    /// The kind of this failure.
    public var kind: FailureKind {
        switch self {
        case .input: .input
        case .file: .localFile
        case .integrity(.checksumMismatch): .checksum
        default: .transfer
        }
    }
}
