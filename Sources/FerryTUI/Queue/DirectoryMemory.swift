import FerryKit
#if canImport(Glibc)
import Glibc
#endif

/// `DirectoryMemory` keeps the directory the last download was added to in a small file
/// (`add-directory` in the state directory), so that the next run's add dialog offers it.
///
/// It is a convenience: a file that cannot be read or written is ignored. Safe from any thread.
public struct DirectoryMemory: Sendable {
    /// `fileName` is the file's name in the state directory.
    public static let fileName = "add-directory"
    /// `maximumLength` bounds what is read: 4 KiB (a path longer than PATH_MAX is not one).
    static let maximumLength = 4096

    /// `path` is the file.
    public let path: String

    /// `init(stateDirectory:)` keeps the memory in `stateDirectory`.
    public init(stateDirectory: String) {
        path = stateDirectory.hasSuffix("/") ? stateDirectory + Self.fileName : stateDirectory + "/" + Self.fileName
    }

    /// `load()` is the remembered directory when it is still a directory, `nil` otherwise.
    public func load() -> String? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: Self.maximumLength + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                SystemCall.retrying { read(fd, buffer.baseAddress.map { $0 + count }, buffer.count - count) }
            }
            guard n > 0 else { break }
            count += n
        }
        guard count <= Self.maximumLength, let text = String(validating: bytes[..<count], as: UTF8.self) else { return nil }
        let directory = text.hasSuffix("\n") ? String(text.dropLast()) : text
        guard !directory.isEmpty, directory.hasPrefix("/"), !directory.unicodeScalars.contains(where: DisplayText.isUnsafe) else { return nil }
        var info = stat()
        guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return directory
    }

    /// `save(_:)` remembers `directory` (an absolute path), replacing the file in one rename.
    public func save(_ directory: String) {
        guard directory.hasPrefix("/"), directory.utf8.count <= Self.maximumLength, load() != directory else { return }
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let bytes = Array((directory + "\n").utf8)
        let failed = bytes.withUnsafeBytes { SystemCall.writeAll(fd, $0) }
        close(fd)
        if failed == nil, rename(temporary, path) == 0 { return }
        unlink(temporary)
    }
}
