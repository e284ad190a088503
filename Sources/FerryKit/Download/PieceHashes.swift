/// `PieceHashes` are the digests of a file's consecutive pieces of `length` bytes (the last
/// may be shorter), as a Metalink's `<pieces>` gives them: a download from several sources
/// checks every piece as it completes and fetches a corrupt one again from another source.
public struct PieceHashes: Sendable, Hashable {
    public let algorithm: ExpectedChecksum.Algorithm
    public let length: Int64
    /// Lowercase hex digests, one per piece.
    public let hashes: [String]

    /// `init(algorithm:length:hashes:)` makes the hashes; `nil` when the length is not positive
    /// or a digest is not hex of the algorithm's size.
    public init?(algorithm: ExpectedChecksum.Algorithm, length: Int64, hashes: [String]) {
        let lowered = hashes.map { $0.lowercased() }
        guard length > 0, !lowered.isEmpty,
              lowered.allSatisfy({ $0.utf8.count == algorithm.hexLength && $0.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) } })
        else { return nil }
        self.algorithm = algorithm
        self.length = length
        self.hashes = lowered
    }

    /// `init(metalink:)` reads a Metalink's pieces; `nil` for an algorithm Ferry does not
    /// compute (a download then relies on the whole-file hash).
    public init?(metalink pieces: Metalink.Pieces) {
        let names: [String: ExpectedChecksum.Algorithm] = ["sha-256": .sha256, "sha-512": .sha512, "sha-1": .sha1, "md5": .md5,
                                                           "sha256": .sha256, "sha512": .sha512, "sha1": .sha1]
        guard let algorithm = names[pieces.algorithm.lowercased()] else { return nil }
        self.init(algorithm: algorithm, length: pieces.length, hashes: pieces.hashes)
    }

    /// `covers(total:)` is whether the hashes are exactly those of a file of `total` bytes.
    public func covers(total: Int64) -> Bool {
        total > 0 && Int64(hashes.count) == (total + length - 1) / length
    }

    /// `range(of:total:)` is the bytes of piece `index` of a file of `total` bytes.
    func range(of index: Int, total: Int64) -> Range<Int64> {
        let start = Int64(index) * length
        return start..<min(total, start + length)
    }

    /// `indices(overlapping:)` are the pieces with a byte in `range`.
    func indices(overlapping range: Range<Int64>) -> ClosedRange<Int>? {
        guard range.upperBound > range.lowerBound else { return nil }
        return Int(range.lowerBound / length)...min(hashes.count - 1, Int((range.upperBound - 1) / length))
    }

    /// `encoded` is the text the journal keeps: `algorithm:length:hash,hash,...`.
    public var encoded: String {
        "\(algorithm.rawValue):\(length):" + hashes.joined(separator: ",")
    }

    /// `decoded(_:)` reads `encoded` back; `nil` for anything else.
    public static func decoded(_ text: String) -> PieceHashes? {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let algorithm = ExpectedChecksum.Algorithm(rawValue: String(parts[0])), let length = Int64(parts[1]) else { return nil }
        return PieceHashes(algorithm: algorithm, length: length, hashes: parts[2].split(separator: ",").map(String.init))
    }
}

/// `VerifiedPieces` is a set of piece indices as the journal keeps it: ranges `a-b` joined
/// by commas ("0-41,43-99").
package enum VerifiedPieces {
    public static func encode(_ pieces: Set<Int>) -> String {
        var parts: [String] = []
        var start: Int?
        var previous = -2
        for index in pieces.sorted() {
            if index != previous + 1 {
                if let start { parts.append(start == previous ? "\(start)" : "\(start)-\(previous)") }
                start = index
            }
            previous = index
        }
        if let start { parts.append(start == previous ? "\(start)" : "\(start)-\(previous)") }
        return parts.joined(separator: ",")
    }

    /// `decode(_:limit:)` reads `encode`'s text, indices below `limit` only.
    public static func decode(_ text: String, limit: Int) -> Set<Int> {
        var result = Set<Int>()
        for part in text.split(separator: ",") {
            let fields = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            let bounds = fields.compactMap { Int($0) }
            guard bounds.count == fields.count, let low = bounds.first, low >= 0 else { continue }
            let high = min(bounds.count == 2 ? bounds[1] : low, limit - 1)
            if low <= high { result.formUnion(low...high) }
        }
        return result
    }
}

extension Metalink.File {
    /// `pieceHashes` are the file's piece hashes as a download checks them; `nil` when it has
    /// none, their algorithm is not one Ferry computes, or they do not cover its stated size.
    public var pieceHashes: PieceHashes? {
        guard let hashes = pieces.flatMap(PieceHashes.init(metalink:)) else { return nil }
        if let size, !hashes.covers(total: size) { return nil }
        return hashes
    }
}
