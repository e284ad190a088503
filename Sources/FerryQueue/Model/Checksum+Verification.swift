import FerryKit
import Foundation
import Glibc

extension Checksum {
    /// `verify(file:)` hashes the file in 1 MiB reads and compares the digest; a mismatch
    /// deletes the file (it must never keep its final name) and fails with
    /// `IntegrityReason.checksumMismatch`.
    public func verify(file: URL) -> Result<Void, FerryError> {
        let path = file.path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            return .failure(.file(.from(errno: errno, path: path, operation: "open")))
        }
        defer { close(fd) }
        var hasher = ChecksumHasher(algorithm: algorithm)
        let size = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = SystemCall.retrying { read(fd, buffer.baseAddress, size) }
            if count < 0 {
                return .failure(.file(.from(errno: errno, path: path, operation: "read")))
            }
            if count == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        let actual = hasher.finalizeHex()
        guard actual == hex else {
            unlink(path)
            return .failure(.integrity(.checksumMismatch(algorithm: algorithm.rawValue, expected: hex, actual: actual)))
        }
        return .success(())
    }
}
