/// `SegmentRange` is one byte range of a download split across connections, as recorded
/// durably: `start..<end`, of which `start..<durableOffset` is synchronized on disk.
public struct SegmentRange: Sendable, Hashable {
    /// The first byte offset of the range.
    public var start: Int64
    /// The offset just past the range.
    public var end: Int64
    /// The offset up to which the range is on disk (`start...end`).
    public var durableOffset: Int64

    public init(start: Int64, end: Int64, durableOffset: Int64) {
        self.start = start
        self.end = end
        self.durableOffset = durableOffset
    }
}
