import Foundation

/// `UploadFileIdentity` is what says that a file is the one an earlier attempt of an upload
/// read: its path, size, modification time, inode and device, and a SHA-256 of its first and
/// last MiB (``edgeBytes``), so that a file rewritten in place with the same size and a
/// restored modification time is still told apart where it matters most for a splice.
///
/// An upload resumes only onto the same identity: anything else starts a new upload.
public struct UploadFileIdentity: Sendable, Hashable, Codable {
    /// `edgeBytes` is how much of each end of the file the digest covers.
    public static let edgeBytes = 1 << 20

    /// `path` is the file's path as given.
    public var path: String
    /// `size` is its length in bytes.
    public var size: Int64
    /// `modifiedNanoseconds` is its modification time, in nanoseconds since 1970.
    public var modifiedNanoseconds: Int64
    /// `inode` and `device` name the file on its file system.
    public var inode: UInt64
    public var device: UInt64
    /// `edgeDigest` is the hex SHA-256 of the first ``edgeBytes`` and the last ``edgeBytes``
    /// (the whole file when it is shorter than twice that).
    public var edgeDigest: String

    /// `init(path:size:modifiedNanoseconds:inode:device:edgeDigest:)` makes an identity.
    public init(path: String, size: Int64, modifiedNanoseconds: Int64, inode: UInt64, device: UInt64, edgeDigest: String) {
        self.path = path
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.inode = inode
        self.device = device
        self.edgeDigest = edgeDigest
    }

    /// `read(path:)` is the identity of the regular file at `path` now; a missing or unreadable
    /// file, or one that is not a regular file, is an error.
    public static func read(path: String) throws(FerryError) -> UploadFileIdentity {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .file(.from(errno: errno, path: path, operation: "open")) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .file(.from(errno: errno, path: path, operation: "stat")) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .input(.invalidOption("\(path) is not a regular file: only a regular file's upload can resume"))
        }
        let size = Int64(info.st_size)
        var hasher = ChecksumHasher(algorithm: .sha256)
        let edge = Int64(edgeBytes)
        let ranges: [(start: Int64, length: Int64)] = size <= 2 * edge ? [(Int64(0), size)] : [(Int64(0), edge), (size - edge, edge)]
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        for (start, length) in ranges {
            var done: Int64 = 0
            while done < length {
                let wanted = Int(min(Int64(buffer.count), length - done))
                let count = buffer.withUnsafeMutableBytes { raw in
                    SystemCall.retrying { pread(fd, raw.baseAddress, wanted, off_t(start + done)) }
                }
                if count < 0 { throw .file(.from(errno: errno, path: path, operation: "read")) }
                if count == 0 { break }
                buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                done += Int64(count)
            }
        }
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return UploadFileIdentity(path: path, size: size, modifiedNanoseconds: modified, inode: UInt64(info.st_ino),
                                  device: UInt64(info.st_dev), edgeDigest: hasher.finalizeHex())
    }

    /// `change(since:)` says how this identity differs from `earlier` (`nil`: the same file,
    /// unchanged), in words for a note: "its size changed (10 MiB, now 12 MiB)".
    public func change(since earlier: UploadFileIdentity) -> String? {
        if path != earlier.path { return "the upload sends \(path), no longer \(earlier.path)" }
        if size != earlier.size {
            return "its size changed (\(ByteFormatting.size(earlier.size)), now \(ByteFormatting.size(size)))"
        }
        if inode != earlier.inode || device != earlier.device { return "it was replaced by another file" }
        if modifiedNanoseconds != earlier.modifiedNanoseconds { return "it was modified" }
        if edgeDigest != earlier.edgeDigest { return "its content changed" }
        return nil
    }
}
