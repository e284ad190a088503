/// `Segment` is one byte range of a download fetched on its own connection.
///
/// Single-stream downloads have no segments: their progress is the task's
/// `ResumeRecord.durableOffset`. A download split into ranges has one segment per range,
/// and its task-level `durableOffset` is then not used.
public struct Segment: Sendable, Hashable {
    /// `start` is the first byte offset of the range (inclusive).
    public var start: Int64
    /// `end` is the offset just past the range (exclusive); `nil` means "to the end of the file".
    public var end: Int64?
    /// `durableOffset` is the absolute file offset up to which this range is on disk
    /// (`start <= durableOffset <= end`); the next request asks for `bytes=durableOffset-(end-1)`.
    public var durableOffset: Int64

    /// `init(start:end:durableOffset:)` makes a segment; `durableOffset` defaults to `start`.
    public init(start: Int64, end: Int64?, durableOffset: Int64? = nil) {
        self.start = start
        self.end = end
        self.durableOffset = durableOffset ?? start
    }
}
