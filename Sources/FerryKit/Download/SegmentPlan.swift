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
    /// With several sources, `writer` is the source its bytes came from (one per range: a range
    /// taken up from another source is split where that source's bytes end) and `avoid` the
    /// sources it should not be fetched from again (they served it corrupt).
    struct Piece: Sendable, Equatable {
        var start: Int64
        var end: Int64
        var next: Int64
        var durable: Int64
        var owner: Int?
        var writer: Int? = nil
        var avoid: Set<Int> = []

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

    /// `claim(for:source:strict:finishEstimate:)` gives connection `owner` (fetching from
    /// `source`) a piece to fetch and returns its index; `nil` when nothing is left to take.
    /// `finishEstimate` is the seconds the owner of a piece needs for what it has left. A piece
    /// that avoids `source` is left to another source while `source` has others to take, and
    /// always when `strict` (another source can serve it).
    mutating func claim(for owner: Int, source: Int? = nil, strict: Bool = false, finishEstimate: (Piece) -> Double) -> Int? {
        let free = pieces.indices.filter { pieces[$0].owner == nil && pieces[$0].remaining > 0 }
        let allowed = free.filter { index in source.map { !pieces[index].avoid.contains($0) } ?? true }
        if let largest = (allowed.isEmpty && !strict ? free : allowed).max(by: { pieces[$0].remaining < pieces[$1].remaining }) {
            if let source, pieces[largest].next > pieces[largest].start, pieces[largest].writer != source {
                // Another source's bytes end here: the rest is a range of its own.
                let index = takeOver(largest, by: owner)
                pieces[index].writer = source
                return index
            }
            pieces[largest].owner = owner
            pieces[largest].writer = source ?? pieces[largest].writer
            return largest
        }
        let busy = pieces.indices.filter { pieces[$0].owner != nil && pieces[$0].remaining >= 2 * minSplitSize }
        guard let slowest = busy.max(by: { finishEstimate(pieces[$0]) < finishEstimate(pieces[$1]) }),
              finishEstimate(pieces[slowest]) > Self.worthSplitting else { return nil }
        let index = split(slowest, for: owner)
        pieces[index].writer = source
        return index
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

    /// `isWritten(_:)` is whether every byte of `range` is written.
    func isWritten(_ range: Range<Int64>) -> Bool {
        pieces.allSatisfy { piece in
            let low = max(piece.start, range.lowerBound), high = min(piece.end, range.upperBound)
            return low >= high || piece.next >= high
        }
    }

    /// `writers(of:)` are the sources the bytes of `range` came from.
    func writers(of range: Range<Int64>) -> Set<Int> {
        Set(pieces.filter { $0.start < range.upperBound && $0.end > range.lowerBound && $0.next > max($0.start, range.lowerBound) }
            .compactMap(\.writer))
    }

    /// `reopen(_:avoiding:)` makes `range` (written, found corrupt) a range of its own to
    /// fetch again, not from `sources` while another can serve it; the bytes around it stay
    /// as they are, and a connection writing after it goes on.
    mutating func reopen(_ range: Range<Int64>, avoiding sources: Set<Int>) {
        var result: [Piece] = []
        for piece in pieces {
            guard piece.start < range.upperBound, piece.end > range.lowerBound else {
                result.append(piece)
                continue
            }
            if piece.start < range.lowerBound {
                var before = piece
                before.end = range.lowerBound
                before.next = min(piece.next, range.lowerBound)
                before.durable = min(piece.durable, range.lowerBound)
                before.owner = nil
                result.append(before)
            }
            let low = max(piece.start, range.lowerBound), high = min(piece.end, range.upperBound)
            result.append(Piece(start: low, end: high, next: low, durable: low, owner: nil, writer: nil, avoid: piece.avoid.union(sources)))
            if piece.end > range.upperBound {
                var after = piece
                after.start = range.upperBound
                after.next = max(piece.next, range.upperBound)
                after.durable = min(after.next, max(piece.durable, range.upperBound))
                result.append(after)
            }
        }
        // Adjacent reopened parts of one range are one range.
        var merged: [Piece] = []
        for piece in result {
            if let last = merged.last, last.end == piece.start, last.owner == nil, piece.owner == nil, last.next == last.start,
               piece.next == piece.start, last.writer == nil, piece.writer == nil, last.start >= range.lowerBound, piece.end <= range.upperBound {
                merged[merged.count - 1].end = piece.end
                merged[merged.count - 1].avoid.formUnion(piece.avoid)
            } else {
                merged.append(piece)
            }
        }
        pieces = merged
    }

    /// `setWriter(_:_:)` records that the bytes of piece `index` come from `source`.
    mutating func setWriter(_ index: Int, _ source: Int) {
        pieces[index].writer = source
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
