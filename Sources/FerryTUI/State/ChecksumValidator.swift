import FerryKit

/// `ChecksumValidator` checks an expected digest typed as `ALGO=HEX` in the add dialog with
/// the command line's own parser (`ExpectedChecksum`): `sha-256=`, `sha256=`, `SHA-256=`,
/// `md5=`, ... in any case, as `--checksum` takes them.
public enum ChecksumValidator {
    /// `names` lists the algorithms for messages: `md5, sha-1, sha-256, sha-512`.
    static let names = ExpectedChecksum.Algorithm.allCases.map(\.rawValue).joined(separator: ", ")

    /// `normalize(_:)` returns the checksum as typed with its algorithm and digest in lower
    /// case (`sha256=…`), or an explanation of what is wrong with it.
    public static func normalize(_ text: String) -> Result<String, FieldProblem> {
        guard let equals = text.firstIndex(of: "=") else {
            return .failure(FieldProblem("Checksum must be ALGO=HEX (\(names))"))
        }
        let name = text[..<equals].lowercased()
        guard let algorithm = ExpectedChecksum.Algorithm(name: name) else {
            return .failure(FieldProblem("Unknown checksum algorithm; use one of \(names)"))
        }
        guard let expected = try? ExpectedChecksum(algorithm: algorithm, hex: String(text[text.index(after: equals)...])) else {
            return .failure(FieldProblem("\(name) needs \(algorithm.hexLength) hex digits"))
        }
        return .success("\(name)=\(expected.hex)")
    }
}
