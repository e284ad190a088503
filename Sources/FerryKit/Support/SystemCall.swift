import CFerrySystem
import Glibc

/// `SystemCall` runs POSIX calls with `EINTR` retried in one place, for every layer.
package enum SystemCall {
    /// `retrying(_:)` calls `body` again while it fails with `EINTR`; returns its result
    /// (`errno` is left as the last call set it).
    @inlinable
    public static func retrying<Result: BinaryInteger>(_ body: () -> Result) -> Result {
        while true {
            let result = body()
            if result >= 0 || errno != EINTR {
                return result
            }
        }
    }

    /// `open(_:_:_:)` is `open(2)` with `O_CLOEXEC` added and `EINTR` retried; `-1` on failure.
    public static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        retrying { Glibc.open(path, flags | O_CLOEXEC, mode) }
    }

    /// `writeAll(_:_:)` writes every byte of `bytes` to `descriptor`, going on after short
    /// writes and `EINTR`; `nil` when all were written, else the `errno` that stopped it.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard var pointer = bytes.baseAddress else { return nil }
        var remaining = bytes.count
        while remaining > 0 {
            let written = retrying { Glibc.write(descriptor, pointer, remaining) }
            if written < 0 { return errno }
            if written == 0 { return EIO }
            remaining -= written
            pointer += written
        }
        return nil
    }

    /// `connect(_:toSocketAt:)` connects the Unix stream socket `descriptor` to the socket at
    /// `path`; false when the path does not fit a socket address or nothing accepts there.
    package static func connect(_ descriptor: Int32, toSocketAt path: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let fits = withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            let name = Array(path.utf8)
            guard name.count < bytes.count else { return false }
            for (index, byte) in name.enumerated() { bytes[index] = byte }
            return true
        }
        return fits && withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    /// `fileStatus(_:)` is `stat(2)`, following symbolic links; `nil` with `errno` set on failure.
    public static func fileStatus(_ path: String) -> stat? {
        var status = stat()
        return stat(path, &status) == 0 ? status : nil
    }

    /// `exists(_:)` tells whether anything (even a dangling symbolic link) is at `path`.
    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// `terminalSize(_:)` is the size of the terminal open at `descriptor` (columns, rows);
    /// `nil` when it is no terminal or reports no size (0 columns).
    public static func terminalSize(_ descriptor: Int32) -> (columns: Int, rows: Int)? {
        var columns: Int32 = 0
        var rows: Int32 = 0
        guard csystem_terminal_size(descriptor, &columns, &rows) == 0, columns > 0 else { return nil }
        return (Int(columns), Int(rows))
    }

    /// `pageOutProgram()` lets the kernel drop the program's start-up pages (its code and
    /// read-only data: clean, file-backed) from this process's memory, so an engine that runs
    /// for days does not keep what only its start used; pages used again come back from the
    /// page cache. Returns whether the kernel took the advice (Linux 5.4 and later).
    @discardableResult
    public static func pageOutProgram() -> Bool {
        csystem_page_out_program() >= 0
    }
}
