/// `Checksum` is the expected digest of a downloaded file: an algorithm and lowercase hex.
public struct Checksum: Sendable, Hashable, CustomStringConvertible {
    /// `Algorithm` lists the digests Ferry can verify, with their aria2 names.
    public enum Algorithm: String, Sendable, CaseIterable {
        /// `md5` (32 hex digits); weak, accepted for compatibility.
        case md5
        /// `sha1` (40 hex digits), written `sha-1` by aria2.
        case sha1 = "sha-1"
        /// `sha256` (64 hex digits), written `sha-256` by aria2.
        case sha256 = "sha-256"
        /// `sha512` (128 hex digits), written `sha-512` by aria2.
        case sha512 = "sha-512"

        /// `hexLength` is the number of hex digits of a digest of this algorithm.
        public var hexLength: Int {
            switch self {
            case .md5: return 32
            case .sha1: return 40
            case .sha256: return 64
            case .sha512: return 128
            }
        }

        /// `init(name:)` accepts aria2's names (`sha-256`) and the undashed ones (`sha256`),
        /// in any case.
        public init?(name: String) {
            switch name.lowercased() {
            case "md5": self = .md5
            case "sha-1", "sha1": self = .sha1
            case "sha-256", "sha256": self = .sha256
            case "sha-512", "sha512": self = .sha512
            default: return nil
            }
        }
    }

    /// `algorithm` is the digest to compute.
    public let algorithm: Algorithm
    /// `hex` is the expected digest in lowercase hex.
    public let hex: String

    /// `init(algorithm:hex:)` checks that `hex` has the right length and only hex digits.
    public init(algorithm: Algorithm, hex: String) throws(QueueError) {
        let lower = hex.lowercased()
        guard lower.utf8.count == algorithm.hexLength,
              lower.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw .input(.invalidChecksum("\(algorithm.rawValue)=\(hex)"))
        }
        self.algorithm = algorithm
        self.hex = lower
    }

    /// `init(parsing:)` reads aria2's and Ferry's `ALGO=HEX` form, for example `sha-256=9f86...`.
    public init(parsing text: String) throws(QueueError) {
        guard let equals = text.firstIndex(of: "="),
              let algorithm = Algorithm(name: String(text[..<equals])) else {
            throw .input(.invalidChecksum(text))
        }
        try self.init(algorithm: algorithm, hex: String(text[text.index(after: equals)...]))
    }

    /// `description` is the `ALGO=HEX` form.
    public var description: String { "\(algorithm.rawValue)=\(hex)" }
}
