import FerryQueue

extension QueueController {
    /// `segmentsByTask(_:)` are the recorded ranges of the split downloads among `records`
    /// (only a download with bytes on disk, not done, can have any: the others cost no read).
    /// A range that cannot be read leaves its task's map as a single stream's. Worker only.
    func segmentsByTask(_ records: [TaskRecord]) -> [TaskID: [Segment]] {
        var found: [TaskID: [Segment]] = [:]
        for record in records where record.state != .done && record.resume.durableOffset > 0 && record.resume.totalLength != nil {
            if let segments = try? journal.segments(of: record.id), !segments.isEmpty {
                found[record.id] = segments
            }
        }
        return found
    }
}
