import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `SHA256Hex` computes SHA-256 digests (swift-crypto) as lowercase hexadecimal strings.
public enum SHA256Hex {
    /// `Hasher` is an incremental SHA-256 whose result is a hex string.
    public struct Hasher {
        private var inner = SHA256()

        /// Creates an empty hasher.
        public init() {}

        /// `update(_:)` adds bytes to the digest.
        public mutating func update(_ bytes: UnsafeRawBufferPointer) {
            inner.update(bufferPointer: bytes)
        }

        /// `update(data:)` adds bytes to the digest.
        public mutating func update(data: some DataProtocol) {
            inner.update(data: data)
        }

        /// `finalize()` is the digest as 64 lowercase hex digits.
        public func finalize() -> String {
            hex(inner.finalize())
        }
    }

    /// `of(data:)` is the SHA-256 of `data` in lowercase hex.
    public static func of(data: some DataProtocol) -> String {
        hex(SHA256.hash(data: data))
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

    private static func hex(_ digest: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
