/// `ChecksumValidator` checks an expected digest typed as `ALGO=HEX`.
public enum ChecksumValidator {
    /// `digestLengths` are the supported algorithms and their hex digest lengths.
    public static let digestLengths: [(algorithm: String, hexDigits: Int)] = [
        ("md5", 32), ("sha1", 40), ("sha256", 64), ("sha512", 128),
    ]

    /// `normalize(_:)` returns the checksum as lower-case `algo=hex`, or an explanation of
    /// what is wrong with it.
    public static func normalize(_ text: String) -> Result<String, FieldProblem> {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let names = digestLengths.map(\.algorithm).joined(separator: ", ")
        guard parts.count == 2 else {
            return .failure(FieldProblem("Checksum must be ALGO=HEX (\(names))"))
        }
        let algorithm = parts[0].lowercased()
        let hex = parts[1].lowercased()
        guard let expected = digestLengths.first(where: { $0.algorithm == algorithm }) else {
            return .failure(FieldProblem("Unknown checksum algorithm; use one of \(names)"))
        }
        guard hex.count == expected.hexDigits, hex.allSatisfy({ $0.isHexDigit && $0.isASCII }) else {
            return .failure(FieldProblem("\(algorithm) needs \(expected.hexDigits) hex digits"))
        }
        return .success("\(algorithm)=\(hex)")
    }
}
