import FerryKit
import Foundation
import Glibc

extension Checksum {
    /// `verify(file:)` hashes the file in 1 MiB reads and compares the digest; a mismatch
    /// deletes the file (it must never keep its final name) and fails with
    /// `IntegrityReason.checksumMismatch`.
    public func verify(file: URL) -> Result<Void, FerryError> {
        let path = file.path
        let actual: String
        switch algorithm.hex(ofFileAt: path) {
        case .success(let digest): actual = digest
        case .failure(let error): return .failure(error)
        }
        guard actual == hex else {
            unlink(path)
            return .failure(.integrity(.checksumMismatch(algorithm: algorithm.rawValue, expected: hex, actual: actual)))
        }
        return .success(())
    }
}

extension Checksum.Algorithm {
    /// `hex(ofFileAt:followingLinks:)` is the digest of the file at `path`, read in 1 MiB
    /// pieces; with `followingLinks` `false` a link at the path's end is not opened.
    public func hex(ofFileAt path: String, followingLinks: Bool = true) -> Result<String, FerryError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
        guard fd >= 0 else {
            return .failure(.file(.from(errno: errno, path: path, operation: "open")))
        }
        defer { close(fd) }
        var hasher = ChecksumHasher(algorithm: self)
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
        return .success(hasher.finalizeHex())
    }
}
