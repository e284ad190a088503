import Crypto

/// `ChecksumHasher` computes a digest incrementally, as a download's bytes are written.
///
/// Used on one thread at a time (the engine's).
public struct ChecksumHasher {
    private enum State {
        case md5(Insecure.MD5)
        case sha1(Insecure.SHA1)
        case sha256(SHA256)
        case sha512(SHA512)
    }

    /// The algorithm being computed.
    public let algorithm: ExpectedChecksum.Algorithm
    private var state: State

    public init(algorithm: ExpectedChecksum.Algorithm) {
        self.algorithm = algorithm
        switch algorithm {
        case .md5: state = .md5(Insecure.MD5())
        case .sha1: state = .sha1(Insecure.SHA1())
        case .sha256: state = .sha256(SHA256())
        case .sha512: state = .sha512(SHA512())
        }
    }

    /// Adds `bytes` to the digest.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        switch state {
        case .md5(var hasher): hasher.update(bufferPointer: bytes); state = .md5(hasher)
        case .sha1(var hasher): hasher.update(bufferPointer: bytes); state = .sha1(hasher)
        case .sha256(var hasher): hasher.update(bufferPointer: bytes); state = .sha256(hasher)
        case .sha512(var hasher): hasher.update(bufferPointer: bytes); state = .sha512(hasher)
        }
    }

    /// The digest of everything added, lowercase hex.
    public func finalizeHex() -> String {
        switch state {
        case .md5(let hasher): Self.hex(hasher.finalize())
        case .sha1(let hasher): Self.hex(hasher.finalize())
        case .sha256(let hasher): Self.hex(hasher.finalize())
        case .sha512(let hasher): Self.hex(hasher.finalize())
        }
    }

    private static func hex(_ digest: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
