import Glibc

/// `NetrcPresence` tells whether the default `.netrc` exists, looked at most once a second.
///
/// A request with `usesNetrc` and no file of its own has libcurl open `~/.netrc` for every
/// transfer, found or not: 5,000 small downloads opened a missing file 5,000 times on the
/// engine thread, which every transfer waits for. When the file is missing, the engine leaves
/// libcurl's `.netrc` option off (the same outcome: no login from it); when it exists, or its
/// place cannot be told, the option is set as before and libcurl reads the file itself. A
/// `.netrc` made while the engine runs counts from the next look, at most a second later.
///
/// The path is libcurl's: `$HOME/.netrc`, else the home directory of the effective user's
/// passwd entry. Engine thread only.
struct NetrcPresence {
    /// Seconds an answer is kept.
    static let validity = 1.0

    private var checkedAt = -Double.infinity
    private var absent = false

    /// `defaultFileIsAbsent()` is true when the default `.netrc` did not exist at the last look,
    /// at most `validity` seconds ago on the system's clock (not a session's, which tests drive).
    mutating func defaultFileIsAbsent() -> Bool {
        let now = SystemClock().now()
        if now - checkedAt >= Self.validity {
            checkedAt = now
            absent = Self.defaultPath().map(Self.isMissing) ?? false
        }
        return absent
    }

    /// `defaultPath()` is where libcurl looks for `.netrc` when given no file; `nil` when it
    /// has no home directory to look in.
    static func defaultPath() -> String? {
        if let home = getenv("HOME") { return String(cString: home) + "/.netrc" }
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(geteuid(), &entry, &buffer, buffer.count, &found) == 0, found != nil,
              let directory = entry.pw_dir else { return nil }
        return String(cString: directory) + "/.netrc"
    }

    /// `isMissing(_:)` is true only when nothing is at `path` (`ENOENT` or `ENOTDIR`): a file
    /// that cannot be looked at is left to libcurl.
    private static func isMissing(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) != 0 && (errno == ENOENT || errno == ENOTDIR)
    }
}
