#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `LocalFiles` answers questions about the local file system for the dialogs.
public enum LocalFiles {
    /// `isReadableFile(_:)` is true when `path` names a regular file (after symbolic links)
    /// that this process may read.
    @Sendable
    public static func isReadableFile(_ path: String) -> Bool {
        var info = stat()
        guard !path.isEmpty, stat(path, &info) == 0 else { return false }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return false }
        return access(path, R_OK) == 0
    }
}
