import Foundation

/// `FileBodyStream` reads an upload body from a file, checking that its size does not change.
///
/// The size is taken when the stream opens; a file that shrinks or grows before the last byte
/// is handed over fails the upload with ``UploadReason/fileChanged(path:expected:actual:)``.
public final class FileBodyStream: BodyStream {
    private let path: String
    private var descriptor: Int32
    private var sent: Int64 = 0
    public let contentLength: Int64

    /// Opens `url` for reading; a missing or unreadable file is an error here, before anything is sent.
    /// Only a regular file is accepted (``PipeBodyStream`` reads FIFOs and standard input); the
    /// open does not block, so a FIFO put in the file's place is refused instead of waited on.
    public init(url: URL) throws(FerryError) {
        path = url.path
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .file(.from(errno: errno, path: url.path, operation: "open")) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .file(.from(errno: code, path: url.path, operation: "stat"))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            Glibc.close(fd)
            throw .input(.invalidOption("\(url.path) is not a regular file"))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        descriptor = fd
        contentLength = Int64(info.st_size)
    }

    deinit {
        close()
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        guard descriptor >= 0 else { throw .upload(.readFailed("\(path) is closed")) }
        let remaining = contentLength - sent
        guard remaining > 0 else {
            try checkSize()
            return 0
        }
        let wanted = Int(min(Int64(buffer.count), remaining))
        let count = SystemCall.retrying { Glibc.read(descriptor, buffer.baseAddress, wanted) }
        if count < 0 { throw .upload(.readFailed("\(path): \(String(cString: strerror(errno)))")) }
        if count == 0 {
            // The file ended early: it shrank since it was opened.
            try checkSize()
            throw .upload(.fileChanged(path: path, expected: contentLength, actual: sent))
        }
        sent += Int64(count)
        if sent == contentLength { try checkSize() }
        return count
    }

    public func rewind() throws(FerryError) {
        guard descriptor >= 0, lseek(descriptor, 0, SEEK_SET) == 0 else { throw .upload(.cannotRewind) }
        sent = 0
    }

    public func seek(to offset: Int64) throws(FerryError) {
        guard descriptor >= 0, offset >= 0, offset <= contentLength, lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw .upload(.cannotRewind)
        }
        sent = offset
    }

    public func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    private func checkSize() throws(FerryError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .upload(.readFailed("\(path): \(String(cString: strerror(errno)))")) }
        if Int64(info.st_size) != contentLength {
            throw .upload(.fileChanged(path: path, expected: contentLength, actual: Int64(info.st_size)))
        }
    }
}
