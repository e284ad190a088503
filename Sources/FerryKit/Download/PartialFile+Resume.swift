import Foundation

extension PartialFile {
    /// Opens an existing partial file to continue it at `offset`: never follows a symlink
    /// (`O_NOFOLLOW`), accepts only a regular file, and truncates it to `offset` (bytes past
    /// the durable offset are untrusted).
    ///
    /// Returns `nil` when there is no such file, it is a symlink or not a regular file, or it is
    /// shorter than `offset`: then the download starts over with ``create(at:)``, which removes
    /// whatever is there without following it. Throws for other I/O errors.
    /// With an `owner`, a file that is not its own (see `PartOwnership`) is never reopened:
    /// `nil`.
    public static func reopen(at url: URL, offset: Int64, owner: CommitMark? = nil) throws(FerryError) -> PartialFile? {
        try reopen(atPath: url.path, offset: offset, owner: owner)
    }

    /// ``reopen(at:offset:owner:)`` for a path.
    public static func reopen(atPath path: String, offset: Int64, owner: CommitMark? = nil) throws(FerryError) -> PartialFile? {
        // An unmarked file is adopted to resume the bytes recorded at its name (and marked);
        // the bytes past the offset the journal recorded go.
        guard let file = try reopenKeepingBytes(atPath: path, minimumLength: offset, owner: owner) else { return nil }
        guard ftruncate(file.descriptor, off_t(offset)) == 0, lseek(file.descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
            let code = errno
            file.close()
            throw .file(.from(errno: code, path: path, operation: "truncate"))
        }
        file.length = offset
        file.writeBackStart = offset
        return file
    }

    /// Reads the first `count` bytes in 1 MiB chunks and hands each to `body` (to hash the
    /// prefix already on disk after a resume).
    public func readPrefix(_ count: Int64, _ body: (UnsafeRawBufferPointer) -> Void) throws(FerryError) {
        try read(0..<count, body)
    }

    /// `read(_:_:)` hands the bytes of `range` to `body`, in chunks of at most 1 MiB (a piece
    /// checked as it completes).
    public func read(_ range: Range<Int64>, _ body: (UnsafeRawBufferPointer) -> Void) throws(FerryError) {
        try writeHeldBytes()
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let wanted = Int(min(Int64(chunk), range.upperBound - offset))
            let read = SystemCall.retrying { pread(descriptor, buffer.baseAddress, wanted, off_t(offset)) }
            if read < 0 {
                throw .file(.from(errno: errno, path: path, operation: "read"))
            }
            if read == 0 { throw .file(.io(path: path, errno: EIO, operation: "read (file shorter than expected)")) }
            body(UnsafeRawBufferPointer(rebasing: buffer[0..<read]))
            offset += Int64(read)
        }
    }
}
