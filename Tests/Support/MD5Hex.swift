import FerryKit
import Foundation

/// `MD5Hex` computes MD5 digests (libcrypto, through FerryKit's `ChecksumHasher`) as lowercase
/// hexadecimal strings, for tests that give `--checksum md5=HEX`.
public enum MD5Hex {
    /// `of(data:)` is the MD5 of `data` in lowercase hex.
    public static func of(data: some DataProtocol) -> String {
        var hasher = ChecksumHasher(algorithm: .md5)
        hasher.update(data)
        return hasher.finalizeHex()
    }
}
