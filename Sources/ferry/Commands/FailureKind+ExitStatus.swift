import FerryKit
import FerryQueue

/// The command line's exit statuses (the design's contract), and the only place that knows
/// them: 1 a transfer failed, 2 usage or input error, 3 checksum mismatch, 4 local file error.
extension FailureKind {
    var exitStatus: Int32 {
        switch self {
        case .transfer: 1
        case .input: 2
        case .checksum: 3
        case .localFile: 4
        }
    }
}

extension FerryError {
    /// The exit status for a run that ended with this error.
    var exitStatus: Int32 { kind.exitStatus }
}

extension SchedulerSummary {
    /// The exit status of a headless run: 0 when nothing failed, else its gravest failure's.
    var exitStatus: Int32 { worstFailure?.exitStatus ?? 0 }
}
