import Glibc
import GRDB

extension QueueError {
    /// `init(converting:path:)` turns any error from the journal's storage into a
    /// `QueueError`, once, at the boundary; a `QueueError` passes through unchanged.
    init(converting error: any Error, path: String) {
        if let error = error as? QueueError {
            self = error
            return
        }
        guard let error = error as? DatabaseError else {
            self = .journal(.io(path: path, detail: "\(error)"))
            return
        }
        switch error.resultCode {
        case .SQLITE_FULL:
            self = .journal(.diskFull(path: path))
        case .SQLITE_READONLY:
            self = .journal(.readOnly(path: path))
        case .SQLITE_PERM, .SQLITE_AUTH:
            self = .journal(.permissionDenied(path: path))
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self = .journal(.busy(path: path))
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            self = .journal(.corrupt(path: path))
        default:
            self = .journal(.io(path: path, detail: error.message ?? "\(error.resultCode)"))
        }
    }

    /// `init(errno:path:)` turns a failed system call on the journal file into a `QueueError`.
    init(errno code: Int32, path: String) {
        switch code {
        case ENOSPC, EDQUOT:
            self = .journal(.diskFull(path: path))
        case EROFS:
            self = .journal(.readOnly(path: path))
        case EACCES, EPERM:
            self = .journal(.permissionDenied(path: path))
        default:
            self = .journal(.io(path: path, detail: systemMessage(code)))
        }
    }
}

extension QueueError {
    /// `inputReason` is the reason of an `.input` error; any other error becomes
    /// `.malformedOption` (parsing a batch line throws only input errors).
    var inputReason: InputReason {
        if case .input(let reason) = self { return reason }
        return .malformedOption
    }
}
