/// `ExpectedChecksum` is the digest a downloaded file must have: an algorithm and lowercase hex.
///
/// Written `ALGO=HEX` on the command line (`sha-256=9f86...`; also `sha-1`, `sha-512`, `md5`,
/// and the undashed names). The queue maps its own checksum to this one.
public struct ExpectedChecksum: Sendable, Hashable, CustomStringConvertible {
    /// `Algorithm` is a digest Ferry can compute while the bytes are written.
    public enum Algorithm: String, Sendable, CaseIterable {
        case md5
        case sha1 = "sha-1"
        case sha256 = "sha-256"
        case sha512 = "sha-512"

        /// The number of hex digits of a digest.
        public var hexLength: Int {
            switch self {
            case .md5: 32
            case .sha1: 40
            case .sha256: 64
            case .sha512: 128
            }
        }

        /// Accepts `md5`, `sha-1`/`sha1`, `sha-256`/`sha256`, `sha-512`/`sha512` in any case.
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

    /// The digest to compute.
    public let algorithm: Algorithm
    /// The expected digest, lowercase hex.
    public let hex: String

    /// Checks that `hex` has the algorithm's length and only hex digits.
    public init(algorithm: Algorithm, hex: String) throws(FerryError) {
        let lower = hex.lowercased()
        guard lower.utf8.count == algorithm.hexLength,
              lower.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw .input(.invalidOption("invalid checksum \"\(algorithm.rawValue)=\(hex)\": expected \(algorithm.hexLength) hex digits"))
        }
        self.algorithm = algorithm
        self.hex = lower
    }

    /// Parses `ALGO=HEX`.
    public init(parsing text: String) throws(FerryError) {
        guard let equals = text.firstIndex(of: "="), let algorithm = Algorithm(name: String(text[..<equals])) else {
            throw .input(.invalidOption("invalid checksum \"\(text)\": expected ALGO=HEX with md5, sha-1, sha-256 or sha-512"))
        }
        try self.init(algorithm: algorithm, hex: String(text[text.index(after: equals)...]))
    }

    /// The `ALGO=HEX` form.
    public var description: String { "\(algorithm.rawValue)=\(hex)" }
}
