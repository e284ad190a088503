import CFerrySystem
import Glibc

/// Positional writes and reads for a download split into ranges: each connection writes at
/// its own offset into the one `.part` (`pwrite`), and a resume keeps every byte on disk.
extension PartialFile {
    /// Writes `bytes` at `offset` (`pwrite`, short writes and `EINTR` retried); ``length``
    /// becomes the end of the furthest byte written.
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(FerryError) {
        try writeHeldBytes()
        guard var pointer = bytes.baseAddress else { return }
        var remaining = bytes.count
        var position = offset
        while remaining > 0 {
            let written = SystemCall.retrying { pwrite(descriptor, pointer, remaining, off_t(position)) }
            if written < 0 { throw .file(.from(errno: errno, path: path, operation: "write")) }
            if written == 0 { throw .file(.from(errno: EIO, path: path, operation: "write")) }
            remaining -= written
            pointer += written
            position += Int64(written)
        }
        length = max(length, position)
        // As for writes in order: the kernel starts writing the new bytes out early, so that the
        // final fdatasync finds little left (here for the whole file: the writes are scattered).
        positionalBytesSinceWriteBack += Int64(bytes.count)
        if positionalBytesSinceWriteBack >= Self.writeBackChunk {
            _ = csystem_start_writeback(descriptor, 0, 0)
            positionalBytesSinceWriteBack = 0
        }
    }

    /// Opens an existing partial file of a split download without truncating it (each range
    /// resumes from its own durable end); the same refusals as `reopen(atPath:offset:owner:)`
    /// (`nil` for a missing, non-regular or foreign file, or one shorter than `minimumLength`).
    public static func reopenKeepingBytes(atPath path: String, minimumLength: Int64, owner: CommitMark? = nil) throws(FerryError) -> PartialFile? {
        let ownership = owner.map { PartOwnership.of(path, owner: $0) }
        if let ownership, !ownership.isUsable(adoptingUnmarked: true) { return nil }
        let fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT || errno == ELOOP || errno == EISDIR { return nil }
            throw .file(.from(errno: errno, path: path, operation: "open"))
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .file(.from(errno: code, path: path, operation: "inspect"))
        }
        guard status.st_mode & S_IFMT == S_IFREG, Int64(status.st_size) >= minimumLength else {
            Glibc.close(fd)
            return nil
        }
        if let owner, ownership == .unmarked { PartOwnership.mark(fd, with: owner) }
        return PartialFile(path: path, descriptor: fd, length: Int64(status.st_size))
    }

    /// Cuts the file to `length` bytes (a split download's file never ends past its total).
    public func truncate(to newLength: Int64) throws(FerryError) {
        guard ftruncate(descriptor, off_t(newLength)) == 0 else {
            throw .file(.from(errno: errno, path: path, operation: "truncate"))
        }
        length = newLength
    }
}
