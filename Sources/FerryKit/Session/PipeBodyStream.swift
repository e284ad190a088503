import Foundation

/// `PipeBodyStream` reads an upload body of unknown length from standard input, a pipe or a
/// FIFO; libcurl sends it with chunked transfer encoding (``contentLength`` is -1).
///
/// A FIFO is opened without blocking (an `open()` that waits for a writer would hold the
/// caller forever when none comes); each read waits in `poll()` until data, or the end,
/// arrives. The bytes can be sent once only: a replay after the first byte cannot rewind.
/// Used on the engine thread only (reads block it while the source has nothing to give,
/// as `ferry put`'s single transfer may).
public final class PipeBodyStream: BodyStream {
    private let name: String
    private var descriptor: Int32
    private let ownsDescriptor: Bool
    private var started = false
    /// Always -1: the length is known only at the end.
    public let contentLength: Int64 = -1

    /// Reads the already open `descriptor`, called `name` in messages; closed by ``close()``
    /// only when `owned`.
    public init(descriptor: Int32, name: String, owned: Bool) {
        self.descriptor = descriptor
        self.name = name
        ownsDescriptor = owned
    }

    /// Opens the FIFO (or character device) at `path` without blocking and returns its
    /// descriptor; a regular file, a directory or a missing path is an error here.
    public static func open(path: String) throws(FerryError) -> Int32 {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .file(.from(errno: errno, path: path, operation: "open")) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .file(.from(errno: code, path: path, operation: "stat"))
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFIFO || type == S_IFCHR || type == S_IFSOCK else {
            Glibc.close(fd)
            throw .input(.invalidOption("\(path) is not a pipe or FIFO"))
        }
        return fd
    }

    deinit {
        close()
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        guard descriptor >= 0 else { throw .upload(.readFailed("\(name) is closed")) }
        guard buffer.count > 0 else { return 0 }
        while true {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let polled = SystemCall.retrying { poll(&ready, 1, -1) }
            if polled < 0 {
                throw .upload(.readFailed("\(name): \(String(cString: strerror(errno)))"))
            }
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 {
                if count > 0 { started = true }
                return count
            }
            if errno == EINTR || errno == EAGAIN { continue }
            throw .upload(.readFailed("\(name): \(String(cString: strerror(errno)))"))
        }
    }

    public var readinessDescriptor: Int32? { descriptor >= 0 ? descriptor : nil }

    public func readAvailable(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int? {
        guard descriptor >= 0 else { throw .upload(.readFailed("\(name) is closed")) }
        guard buffer.count > 0 else { return 0 }
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        // A FIFO no writer opened yet reports nothing (its read would say end of file).
        guard SystemCall.retrying({ poll(&ready, 1, 0) }) > 0 else { return nil }
        let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
        if count >= 0 {
            if count > 0 { started = true }
            return count
        }
        if errno == EINTR || errno == EAGAIN { return nil }
        throw .upload(.readFailed("\(name): \(String(cString: strerror(errno)))"))
    }

    public func rewind() throws(FerryError) {
        // Nothing read yet: nothing to go back over.
        guard !started else { throw .upload(.cannotRewind) }
    }

    public func close() {
        if descriptor >= 0 && ownsDescriptor { Glibc.close(descriptor) }
        descriptor = -1
    }
}
