import FerryKit

/// `Aria2ErrorCode` is the `errorCode` of a failed download, in aria2's numbering (its exit
/// statuses), from the kind of the failure: clients show it, and `ferry get` following a
/// daemon turns it back into its own exit status.
public enum Aria2ErrorCode {
    /// `unknown` (aria2's 1) is a failure of the transfer, or one whose kind is not known.
    public static let unknown = "1"
    /// `fileIO` (aria2's 17) is a local file error.
    public static let fileIO = "17"
    /// `badOption` (aria2's 28) is wrong input.
    public static let badOption = "28"
    /// `checksum` (aria2's 32) is a checksum validation failure.
    public static let checksum = "32"

    /// `code(for:)` is the code of a failure of `kind` (`unknown` for `nil`).
    public static func code(for kind: FailureKind?) -> String {
        switch kind {
        case .transfer?, nil: unknown
        case .input?: badOption
        case .checksum?: checksum
        case .localFile?: fileIO
        }
    }

    /// `kind(of:)` is the kind of failure a code stands for (`transfer` for any other).
    public static func kind(of code: String) -> FailureKind {
        switch code {
        case badOption: .input
        case checksum: .checksum
        case fileIO: .localFile
        default: .transfer
        }
    }
}
