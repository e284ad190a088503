import Crypto
import Foundation

/// `MD5Hex` computes MD5 digests (swift-crypto) as lowercase hexadecimal strings, for
/// tests that give `--checksum md5=HEX`.
public enum MD5Hex {
    /// `of(data:)` is the MD5 of `data` in lowercase hex.
    public static func of(data: some DataProtocol) -> String {
        Insecure.MD5.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}
