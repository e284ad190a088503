import CFerrySystem

/// `CommitMark` is an extended attribute that says which download made a file, so that a
/// process killed after naming the file, before its caller recorded the download done, finds
/// the file again instead of fetching a copy (`DownloadDestination.recoverMarkedFile(_:)`).
///
/// A download with a mark in its `DownloadPolicy` that starts from zero with a known length of
/// at most `unnamedFileLimit` is written to an unnamed file (`O_TMPFILE`) carrying the mark,
/// which gets its final name with one `link`: no `.part` is created, linked or removed. Where
/// the file system has no unnamed files or no user attributes, the `.part` is used as always.
/// The attribute stays on the file (`getfattr -n user.ferry.commit FILE` shows it).
public struct CommitMark: Sendable, Hashable {
    /// The attribute's name, `user.ferry.commit`.
    public static let name = "user.ferry.commit"
    /// The largest download written to an unnamed file, 1 MiB: a crash loses its bytes (an
    /// unnamed file has no name to resume from), which costs little at that size.
    public static let unnamedFileLimit: Int64 = 1 << 20

    /// The value identifying one download (a queue's identity and the task's).
    public let value: String

    public init(value: String) {
        self.value = value
    }

    /// `value(at:)` is the mark on the file at `path` (a symlink is not followed); `nil` when
    /// it has none or it cannot be read.
    static func value(at path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 128)
        let size = buffer.withUnsafeMutableBytes { bytes in
            csystem_read_attribute(path, name, bytes.baseAddress, bytes.count)
        }
        return size < 0 ? nil : String(decoding: buffer.prefix(size), as: UTF8.self)
    }
}
