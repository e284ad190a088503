import FerryKit
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `SHA256Hex` computes SHA-256 digests (libcrypto, through FerryKit's `ChecksumHasher`) as lowercase hexadecimal strings.
public enum SHA256Hex {
    /// `base64(hex:)` is a hex digest in base64, as `Digest` and `Repr-Digest` headers carry it.
    public static func base64(hex: String) -> String {
        let digits = Array(hex.utf8)
        return Data(stride(from: 0, to: digits.count - 1, by: 2).map { index in
            UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) ?? 0
        }).base64EncodedString()
    }

    /// `Hasher` is an incremental SHA-256 whose result is a hex string.
    public struct Hasher {
        private var inner = ChecksumHasher(algorithm: .sha256)

        /// Creates an empty hasher.
        public init() {}

        /// `update(_:)` adds bytes to the digest.
        public mutating func update(_ bytes: UnsafeRawBufferPointer) {
            inner.update(bytes)
        }

        /// `update(data:)` adds bytes to the digest.
        public mutating func update(data: some DataProtocol) {
            inner.update(data)
        }

        /// `finalize()` is the digest as 64 lowercase hex digits.
        public func finalize() -> String {
            inner.finalizeHex()
        }
    }

    /// `of(data:)` is the SHA-256 of `data` in lowercase hex.
    public static func of(data: some DataProtocol) -> String {
        var hasher = Hasher()
        hasher.update(data: data)
        return hasher.finalize()
    }

    /// `of(file:)` is the SHA-256 of the file's contents, read in 1 MiB pieces.
    public static func of(file url: URL) throws -> String {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw TestSupportError.posix("open \(url.path)") }
        defer { close(fd) }
        var hasher = Hasher()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw TestSupportError.posix("read \(url.path)")
            }
            if count == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        return hasher.finalize()
    }
}
