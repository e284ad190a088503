import Glibc

/// `SystemCall` runs POSIX calls, retrying `EINTR` in one place.
enum SystemCall {
    /// `retrying(_:)` calls `body` again while it fails with `EINTR`; returns its result.
    static func retrying<Result: BinaryInteger>(_ body: () -> Result) -> Result {
        while true {
            let result = body()
            if result >= 0 || errno != EINTR {
                return result
            }
        }
    }

    /// `open(_:_:_:)` is `open(2)` with `O_CLOEXEC` added and `EINTR` retried; `-1` on failure.
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        retrying { Glibc.open(path, flags | O_CLOEXEC, mode) }
    }

    /// `fileStatus(_:)` is `stat(2)`, following symbolic links; `nil` with `errno` set on failure.
    static func fileStatus(_ path: String) -> stat? {
        var status = stat()
        return stat(path, &status) == 0 ? status : nil
    }

    /// `exists(_:)` tells whether anything (even a dangling symbolic link) is at `path`.
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}
