import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `TemporaryDirectory` is a fresh, uniquely named directory under the system temporary
/// directory (`$TMPDIR`, else `/tmp`). It stays until `remove()` is called.
public struct TemporaryDirectory: Sendable {
    /// `url` is the directory's file URL.
    public let url: URL

    /// `path` is the directory's file-system path.
    public var path: String { url.path }

    /// Creates the directory with `mkdtemp`, mode 0700, or 0755 when `worldReadable` is
    /// `true` (for trees served by nginx workers running as another user). `false` by default.
    public init(prefix: String = "ferry-test", worldReadable: Bool = false) throws {
        let base = FileManager.default.temporaryDirectory.path
        var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            mkdtemp(buffer.baseAddress!) != nil
        }
        guard created else {
            throw TestSupportError.posix("mkdtemp under \(base)")
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        if worldReadable, chmod(path, 0o755) != 0 {
            throw TestSupportError.posix("chmod 0755 \(path)")
        }
        url = URL(fileURLWithPath: path, isDirectory: true)
    }

    /// `file(_:)` is the URL of `name` inside the directory (nothing is created).
    public func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// `remove()` deletes the directory and everything in it; errors are ignored.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
