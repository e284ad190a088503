/// `SegmentPlan` is the map of a split download: contiguous pieces covering `0..<total`, each
/// fetched by at most one connection. A pure value, driven without a server in tests.
///
/// A new connection takes the largest piece nobody fetches; when every piece is being
/// fetched it takes the second half of the piece whose connection would finish last
/// (remaining bytes over its speed: the largest remaining one when speeds are equal, the
/// slowest one's when they differ). No piece with less than `2 * minSplitSize` left is split,
/// nor one its connection ends within half a second (``worthSplitting``);
/// such a piece is taken over whole only when its connection crawls (``takeOver(_:by:)``).
struct SegmentPlan: Sendable {
    /// `Piece` is one range: `start..<end`, written up to `next`, durable up to `durable`.
    struct Piece: Sendable, Equatable {
        var start: Int64
        var end: Int64
        var next: Int64
        var durable: Int64
        var owner: Int?

        var remaining: Int64 { max(0, end - next) }
    }

    let total: Int64
    let minSplitSize: Int64
    private(set) var pieces: [Piece]

    /// A plan with one piece over the whole file.
    init(total: Int64, minSplitSize: Int64) {
        self.total = total
        self.minSplitSize = max(1, minSplitSize)
        pieces = [Piece(start: 0, end: total, next: 0, durable: 0, owner: nil)]
    }

    /// A plan resuming recorded ranges; `nil` when they do not cover `0..<total` exactly.
    init?(total: Int64, minSplitSize: Int64, ranges: [SegmentRange]) {
        let sorted = ranges.sorted { $0.start < $1.start }
        var expected: Int64 = 0
        for range in sorted {
            guard range.start == expected, range.end > range.start,
                  (range.start...range.end).contains(range.durableOffset) else { return nil }
            expected = range.end
        }
        guard expected == total, total > 0 else { return nil }
        self.total = total
        self.minSplitSize = max(1, minSplitSize)
        pieces = sorted.map { Piece(start: $0.start, end: $0.end, next: $0.durableOffset, durable: $0.durableOffset, owner: nil) }
    }

    var isComplete: Bool { pieces.allSatisfy { $0.next >= $0.end } }

    /// Bytes written so far, in every piece.
    var writtenBytes: Int64 { pieces.reduce(0) { $0 + ($1.next - $1.start) } }

    /// Bytes on disk, synchronized.
    var durableBytes: Int64 { pieces.reduce(0) { $0 + ($1.durable - $1.start) } }

    /// `index(of:)` is the index of the piece `owner` fetches.
    func index(of owner: Int) -> Int? { pieces.firstIndex { $0.owner == owner } }

    subscript(index: Int) -> Piece { pieces[index] }

    /// `claim(for:finishEstimate:)` gives connection `owner` a piece to fetch and returns its
    /// index; `nil` when nothing is left to take. `finishEstimate` is the seconds the owner of
    /// a piece needs for what it has left.
    mutating func claim(for owner: Int, finishEstimate: (Piece) -> Double) -> Int? {
        let free = pieces.indices.filter { pieces[$0].owner == nil && pieces[$0].remaining > 0 }
        if let largest = free.max(by: { pieces[$0].remaining < pieces[$1].remaining }) {
            pieces[largest].owner = owner
            return largest
        }
        let busy = pieces.indices.filter { pieces[$0].owner != nil && pieces[$0].remaining >= 2 * minSplitSize }
        guard let slowest = busy.max(by: { finishEstimate(pieces[$0]) < finishEstimate(pieces[$1]) }),
              finishEstimate(pieces[slowest]) > Self.worthSplitting else { return nil }
        return split(slowest, for: owner)
    }

    /// The seconds a piece's owner must still need for a new connection to take half of it,
    /// `0.5`: a new request (a round trip, a slow start) would not end a shorter wait sooner,
    /// and the rest of a piece about to end is often already on its way (nginx's `limit_rate`
    /// sends 2 MiB at once): split then, those bytes would be sent twice.
    static let worthSplitting = 0.5

    /// Splits piece `index` in the middle of what it has left; the new second half, owned by
    /// `owner`, is at the returned index.
    private mutating func split(_ index: Int, for owner: Int) -> Int {
        let piece = pieces[index]
        // 4 KiB aligned, so that writes stay aligned with pages.
        let middle = max(piece.next + 1, (piece.next + piece.remaining / 2) & ~4095)
        pieces[index].end = middle
        pieces.insert(Piece(start: middle, end: piece.end, next: middle, durable: middle, owner: owner), at: index + 1)
        return index + 1
    }

    /// `takeOver(_:by:)` hands what piece `index` has left to `owner` (its connection crawls
    /// and is stopped); returns the index of the piece `owner` now fetches.
    mutating func takeOver(_ index: Int, by owner: Int) -> Int {
        let piece = pieces[index]
        guard piece.next > piece.start else {
            pieces[index].owner = owner
            return index
        }
        pieces[index].end = piece.next
        pieces[index].owner = nil
        pieces.insert(Piece(start: piece.next, end: piece.end, next: piece.next, durable: piece.next, owner: owner), at: index + 1)
        return index + 1
    }

    /// `release(_:)` frees the piece `owner` fetched.
    mutating func release(_ owner: Int) {
        for index in pieces.indices where pieces[index].owner == owner { pieces[index].owner = nil }
    }

    /// `advance(_:by:)` records `count` bytes written at piece `index`'s `next`.
    mutating func advance(_ index: Int, by count: Int64) {
        pieces[index].next += count
    }

    /// `rewind(_:by:)` takes back `count` bytes recorded at piece `index` that never reached
    /// the file (never below what is durable).
    mutating func rewind(_ index: Int, by count: Int64) {
        pieces[index].next = max(pieces[index].durable, pieces[index].next - count)
    }

    /// `markDurable()` records every written byte as synchronized.
    mutating func markDurable() {
        for index in pieces.indices { pieces[index].durable = pieces[index].next }
    }

    /// The ranges to record, adjacent complete pieces merged.
    var ranges: [SegmentRange] {
        var result: [SegmentRange] = []
        for piece in pieces {
            if let last = result.last, last.durableOffset == last.end, piece.durable == piece.end {
                result[result.count - 1].end = piece.end
                result[result.count - 1].durableOffset = piece.end
            } else {
                result.append(SegmentRange(start: piece.start, end: piece.end, durableOffset: piece.durable))
            }
        }
        return result
    }
}
