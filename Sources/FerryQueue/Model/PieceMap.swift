/// `PieceMap` describes which parts of a download are on disk the way aria2 reports them:
/// pieces of ``pieceLength`` and a `bitfield` in hexadecimal.
public enum PieceMap {
    /// `pieceLength` is the piece length reported (aria2's default, 1 MiB); Ferry fetches
    /// byte ranges, not pieces: the map is only a view.
    public static let pieceLength: Int64 = 1 << 20

    /// `pieces(total:)` is the number of pieces of a file of `total` bytes.
    public static func pieces(total: Int64) -> Int64 {
        total > 0 ? (total + pieceLength - 1) / pieceLength : 0
    }

    /// `doneRanges(of:segments:completed:)` are the byte ranges (start, end) of `record` on
    /// disk: the whole file when done, a split download's ranges up to their durable ends,
    /// else the first `completed` bytes.
    public static func doneRanges(of record: TaskRecord, segments: [Segment], completed: Int64) -> [(Int64, Int64)] {
        let total = record.resume.totalLength ?? 0
        if record.state == .done { return [(0, total)] }
        if !segments.isEmpty { return segments.map { ($0.start, $0.durableOffset) } }
        return [(0, min(completed, total))]
    }

    /// `bitfield(done:total:)` is one bit per piece (the first in the high bit of the first
    /// byte), set when the piece lies wholly in one of the ranges `done`, in hexadecimal.
    public static func bitfield(done: [(Int64, Int64)], total: Int64) -> String {
        guard total > 0 else { return "" }
        let pieces = Int(pieces(total: total))
        var bytes = [UInt8](repeating: 0, count: (pieces + 7) / 8)
        for (start, end) in done where end > start {
            // Only the pieces wholly inside the range (the last piece may be short).
            let first = Int((start + pieceLength - 1) / pieceLength)
            let last = end >= total ? pieces : Int(end / pieceLength)
            guard first < last else { continue }
            for piece in first..<last {
                bytes[piece / 8] |= 0x80 >> UInt8(piece % 8)
            }
        }
        // Two hex digits a byte, written as ASCII bytes (a front end asks for every active
        // task's bitfield once a second).
        let digits: StaticString = "0123456789abcdef"
        return digits.withUTF8Buffer { digits in
            String(unsafeUninitializedCapacity: bytes.count * 2) { text in
                for (index, byte) in bytes.enumerated() {
                    text[2 * index] = digits[Int(byte >> 4)]
                    text[2 * index + 1] = digits[Int(byte & 15)]
                }
                return bytes.count * 2
            }
        }
    }
}
