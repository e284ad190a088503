import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The system calls `ChildProcess` is built on: pipes, signals, writes, the executable's
// path, C string arrays (internal to the test support, used by `ChildProcess` only).

/// `Native` holds C library functions Swift's Glibc module does not import (they need
/// `_GNU_SOURCE`), looked up once at run time.
enum Native {
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32

    static let pipe2: Pipe2? = symbol("pipe2", as: Pipe2.self)
    static let addChdir: AddChdir? = symbol("posix_spawn_file_actions_addchdir_np", as: AddChdir.self)

    private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: type)
    }
}

/// Creates a pipe whose both ends are close-on-exec (atomically when `pipe2` exists).
func makePipe() throws -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    if let pipe2 = Native.pipe2 {
        guard pipe2(&fds, O_CLOEXEC) == 0 else { throw TestSupportError.posix("pipe2") }
    } else {
        guard pipe(&fds) == 0 else { throw TestSupportError.posix("pipe") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    }
    return (fds[0], fds[1])
}

/// `kill(2)`, under a name that the `kill` method does not shadow.
func sendSignal(_ pid: pid_t, _ signal: Int32) {
    _ = kill(pid, signal)
}

/// Writes all of `data` to `fd`, retrying `EINTR`, with `SIGPIPE` blocked in the calling
/// thread; a `SIGPIPE` that the write raised is taken off the thread again before it returns.
func writeWithoutSIGPIPE(_ fd: Int32, _ data: Data, to name: String) throws(TestSupportError) {
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    var previousMask = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previousMask)
    var pendingBefore = sigset_t()
    sigpending(&pendingBefore)
    let wasPending = sigismember(&pendingBefore, SIGPIPE) == 1
    defer {
        var pendingNow = sigset_t()
        sigpending(&pendingNow)
        if !wasPending, sigismember(&pendingNow, SIGPIPE) == 1 {
            var noWait = timespec(tv_sec: 0, tv_nsec: 0)
            _ = sigtimedwait(&pipeSignal, nil, &noWait)
        }
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }
    var offset = 0
    while offset < data.count {
        let written = data.withUnsafeBytes { bytes in
            write(fd, bytes.baseAddress!.advanced(by: offset), data.count - offset)
        }
        if written > 0 {
            offset += written
        } else if written < 0 && errno != EINTR {
            throw TestSupportError.posix("write to the standard input of \(name)")
        }
    }
}

func closeAll(_ fds: [Int32]) {
    for fd in fds where fd >= 0 {
        close(fd)
    }
}

/// Resolves a bare command name through `PATH` (the child's if given, else ours).
func resolveExecutable(_ name: String, environment: [String: String]?) throws -> String {
    if name.contains("/") {
        guard access(name, X_OK) == 0 else { throw TestSupportError.posix("not executable: \(name)") }
        return name
    }
    let searchPath = environment?["PATH"] ?? ProcessInfo.processInfo.environment["PATH"]
        ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in searchPath.split(separator: ":") where !directory.isEmpty {
        let candidate = "\(directory)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    throw TestSupportError("\(name) not found in PATH (\(searchPath))")
}

/// Calls `body` with a NULL-terminated C array of copies of `strings`.
func withCStringArray<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}

extension Duration {
    /// `seconds` is the duration in seconds, as a `TimeInterval`.
    var seconds: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
