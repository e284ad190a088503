extension QueueError {
    /// `isWriteFailure` is true for a journal that cannot be written or read back: a full
    /// disk, a read-only file or file system, a permission, corruption or another I/O error.
    /// Waiting does not cure it, unlike `.busy` (another process's write) or a refused
    /// change of one task.
    public var isWriteFailure: Bool {
        guard case .journal(let reason) = self else { return false }
        switch reason {
        case .diskFull, .readOnly, .permissionDenied, .corrupt, .io: return true
        case .busy, .newerSchema, .unreadable, .cannotMoveAside, .taskNotFound, .invalidTransition, .invalidTask: return false
        }
    }
}
