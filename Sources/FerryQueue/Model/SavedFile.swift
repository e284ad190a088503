#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `SavedFile` is what a finished download's file was when Ferry gave it its name: the
/// modification time (nanoseconds) and inode the journal records with the outcome, so that a
/// later run can tell the file on disk is still the one Ferry wrote (with the length the
/// journal records as the total), and not another put in its place, even one of the same
/// length with an older time (`cp -p`, `rsync -t`, `tar x`).
public struct SavedFile: Sendable, Hashable {
    /// `modifiedNanoseconds` is the file's modification time in nanoseconds since 1970.
    public var modifiedNanoseconds: Int64
    /// `inode` is the file's inode number (as the bits of an `Int64`, as SQLite stores it).
    public var inode: Int64
    /// `size` is the file's length in bytes.
    public var size: Int64

    public init(modifiedNanoseconds: Int64, inode: Int64, size: Int64) {
        self.modifiedNanoseconds = modifiedNanoseconds
        self.inode = inode
        self.size = size
    }

    /// `at(_:)` is the identity of the regular file at `path` (not following a symlink);
    /// `nil` when there is none.
    public static func at(_ path: String) -> SavedFile? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return SavedFile(modifiedNanoseconds: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
                         inode: Int64(bitPattern: UInt64(status.st_ino)), size: Int64(status.st_size))
    }
}
