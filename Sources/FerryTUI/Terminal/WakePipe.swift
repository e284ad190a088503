import FerryKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `WakePipe` is a non-blocking pipe whose read end the run loop polls: writing a byte
/// from any thread (or a signal handler) wakes the loop.
public final class WakePipe: Sendable {
    /// `readDescriptor` is polled by the run loop.
    public let readDescriptor: Int32
    /// `writeDescriptor` receives one byte per wake-up.
    public let writeDescriptor: Int32

    /// `init()` opens the pipe, both ends non-blocking and close-on-exec.
    public init() throws(TerminalError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .system("pipe", errno) }
        for fd in fds {
            let flags = fcntl(fd, F_GETFL)
            guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0, fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 else {
                let code = errno
                close(fds[0])
                close(fds[1])
                throw .system("fcntl", code)
            }
        }
        readDescriptor = fds[0]
        writeDescriptor = fds[1]
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// `signal()` writes one byte; a full pipe already guarantees a wake-up, so it is not an error.
    public func signal() {
        var byte: UInt8 = 1
        _ = SystemCall.retrying { write(writeDescriptor, &byte, 1) }
    }

    /// `drain()` reads every pending byte so that the next poll sleeps again.
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                SystemCall.retrying { read(readDescriptor, bytes.baseAddress, bytes.count) }
            }
            if count <= 0 { return }
        }
    }
}
