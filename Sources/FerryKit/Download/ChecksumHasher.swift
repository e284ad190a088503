import CCrypto

/// `ChecksumHasher` computes a digest incrementally, as a download's bytes are written.
///
/// The digests are libcrypto's (OpenSSL, which libcurl loads already). A value type: a copy
/// goes on from the state it was copied in (copied on its first change).
///
/// Used on one thread at a time (the engine's).
public struct ChecksumHasher {
    /// `Context` owns one libcrypto digest context.
    private final class Context {
        let handle: OpaquePointer?

        init(_ handle: OpaquePointer?) {
            self.handle = handle
        }

        deinit {
            ccrypto_digest_free(handle)
        }
    }

    /// The algorithm being computed.
    public let algorithm: ExpectedChecksum.Algorithm
    private var context: Context

    public init(algorithm: ExpectedChecksum.Algorithm) {
        self.algorithm = algorithm
        let number: Int32 = switch algorithm {
        case .md5: Int32(CCRYPTO_MD5)
        case .sha1: Int32(CCRYPTO_SHA1)
        case .sha256: Int32(CCRYPTO_SHA256)
        case .sha512: Int32(CCRYPTO_SHA512)
        }
        context = Context(ccrypto_digest_new(number))
    }

    /// Adds `bytes` to the digest.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let handle = context.handle, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        if isKnownUniquelyReferenced(&context) {
            _ = ccrypto_digest_update(handle, base, bytes.count)
        } else {
            context = Context(ccrypto_digest_copy(handle))
            if let copy = context.handle { _ = ccrypto_digest_update(copy, base, bytes.count) }
        }
    }

    /// Adds the bytes of `sequence` to the digest.
    public mutating func update(_ sequence: some Sequence<UInt8>) {
        let done: Void? = sequence.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil {
            let bytes = Array(sequence)
            bytes.withUnsafeBytes { update($0) }
        }
    }

    /// The digest of everything added, lowercase hex; the system's libcrypto refusing the
    /// algorithm (a FIPS-only configuration refuses MD5) gives a text saying so, which matches
    /// no digest.
    public func finalizeHex() -> String {
        guard let digest = finalize() else { return "(\(algorithm.rawValue) is not available in this system's libcrypto)" }
        return Self.hex(digest)
    }

    /// The digest of everything added, or `nil` when libcrypto cannot compute it.
    public func finalize() -> [UInt8]? {
        guard let handle = context.handle else { return nil }
        var out = [UInt8](repeating: 0, count: Int(CCRYPTO_MAX_DIGEST))
        let length = out.withUnsafeMutableBufferPointer { ccrypto_digest_final(handle, $0.baseAddress) }
        guard length > 0 else { return nil }
        return Array(out[0..<length])
    }

    /// `hex(_:)` is `digest` in lowercase hexadecimal.
    static func hex(_ digest: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
