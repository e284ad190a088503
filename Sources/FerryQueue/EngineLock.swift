import FerryKit
import Glibc
import Synchronization

/// `EngineLock` makes sure only one engine runs a state directory's queue.
///
/// It holds an exclusive `flock` on `engine.lock` (mode 0600) and writes its pid there, so a
/// second process can name the holder. The kernel releases the lock when the process dies,
/// so a stale lock file never blocks. The lock is released by `release()` or on deinit.
/// Thread-safe.
public final class EngineLock: Sendable {
    /// `path` is the lock file.
    public let path: String
    private let descriptor: Mutex<Int32>

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = Mutex(descriptor)
    }

    deinit {
        release()
    }

    /// `acquire(at:)` takes the lock at `path` without waiting.
    ///
    /// Throws `QueueError.lock(.heldByAnotherProcess(pid:))`, whose message is
    /// "another ferry (pid N) is running this queue", when another open file holds it
    /// (another process, or another `EngineLock` in this one).
    public static func acquire(at path: String) throws(QueueError) -> EngineLock {
        let fd = SystemCall.open(path, O_RDWR | O_CREAT | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw .lock(.cannotOpen(path: path, errno: errno))
        }
        if SystemCall.retrying({ flock(fd, LOCK_EX | LOCK_NB) }) != 0 {
            let code = errno
            let holder = code == EWOULDBLOCK ? readHolder(fd) : nil
            close(fd)
            throw code == EWOULDBLOCK
                ? .lock(.heldByAnotherProcess(pid: holder))
                : .lock(.failed(path: path, errno: code))
        }
        let text = Array("\(getpid())\n".utf8)
        guard fchmod(fd, 0o600) == 0, ftruncate(fd, 0) == 0,
              text.withUnsafeBytes({ bytes in
                  SystemCall.retrying { pwrite(fd, bytes.baseAddress, bytes.count, 0) }
              }) == text.count else {
            let code = errno
            close(fd)
            throw .lock(.failed(path: path, errno: code))
        }
        return EngineLock(path: path, descriptor: fd)
    }

    /// `prepare(at:)` makes the lock file at `path` when there is none, without taking the
    /// lock, and gives it a byte, so that an engine started when the file system is full
    /// can still take the lock and write its pid there (and say what it cannot write). For
    /// the commands that only change rows; a failure is left for the engine to report.
    public static func prepare(at path: String) {
        let fd = SystemCall.open(path, O_RDWR | O_CREAT | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        var status = stat()
        if fstat(fd, &status) == 0, status.st_size == 0 {
            _ = SystemCall.retrying { pwrite(fd, "\n", 1, 0) }
        }
        close(fd)
    }

    /// `release()` drops the lock; calling it again does nothing.
    public func release() {
        descriptor.withLock { fd in
            if fd >= 0 {
                // Unlocked first: a child process being spawned at this moment holds a copy
                // of the descriptor until its exec, and closing ours alone would leave the
                // lock held by that copy.
                _ = SystemCall.retrying { flock(fd, LOCK_UN) }
                close(fd)
                fd = -1
            }
        }
    }

    /// `isHeld` is true until `release()`.
    public var isHeld: Bool {
        descriptor.withLock { $0 >= 0 }
    }

    /// `holder(at:)` is the pid the last holder of the lock file at `path` wrote, without
    /// taking the lock (which may have been released since); `nil` when there is none.
    public static func holder(at path: String) -> Int32? {
        let fd = SystemCall.open(path, O_RDONLY | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return readHolder(fd)
    }

    /// `readHolder(_:)` reads the pid the holder wrote; `nil` if it is not there (yet).
    private static func readHolder(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { bytes in
            SystemCall.retrying { pread(fd, bytes.baseAddress, bytes.count, 0) }
        }
        guard count > 0 else { return nil }
        let digits = buffer[0..<count].prefix(while: { (0x30...0x39).contains($0) })
        return Int32(String(decoding: digits, as: UTF8.self))
    }
}
