import Crypto
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
        var hasher = AnyHasher(algorithm)
        let size = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer.baseAddress, size)
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.file(.from(errno: errno, path: path, operation: "read")))
            }
            if count == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        let actual = hasher.finalize()
        guard actual == hex else {
            unlink(path)
            return .failure(.integrity(.checksumMismatch(algorithm: algorithm.rawValue, expected: hex, actual: actual)))
        }
        return .success(())
    }
}

/// `AnyHasher` is one of swift-crypto's hash functions, chosen by `Checksum.Algorithm`.
private struct AnyHasher {
    private var md5: Insecure.MD5?
    private var sha1: Insecure.SHA1?
    private var sha256: SHA256?
    private var sha512: SHA512?

    init(_ algorithm: Checksum.Algorithm) {
        switch algorithm {
        case .md5: md5 = Insecure.MD5()
        case .sha1: sha1 = Insecure.SHA1()
        case .sha256: sha256 = SHA256()
        case .sha512: sha512 = SHA512()
        }
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        md5?.update(bufferPointer: bytes)
        sha1?.update(bufferPointer: bytes)
        sha256?.update(bufferPointer: bytes)
        sha512?.update(bufferPointer: bytes)
    }

    func finalize() -> String {
        let bytes: [UInt8]
        if let md5 { bytes = Array(md5.finalize()) }
        else if let sha1 { bytes = Array(sha1.finalize()) }
        else if let sha256 { bytes = Array(sha256.finalize()) }
        else if let sha512 { bytes = Array(sha512.finalize()) }
        else { bytes = [] }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }
}
