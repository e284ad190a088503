import Dispatch
import FerryKit
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

    /// `rangesIfDue(of:progress:)` reads again the ranges on disk of a split download on
    /// screen, as it runs (its checkpoints move them about once a second, and progress events
    /// come more often: read at most every `rangesInterval`); `nil` when not due, not split or
    /// not shown. Worker only.
    func rangesIfDue(of id: TaskID, progress: TransferProgress) -> [Range<Int64>]? {
        guard (progress.connections ?? 1) > 1 else { return nil }
        let now = DispatchTime.now().uptimeNanoseconds
        let due = state.withLock { state -> Bool in
            guard state.shown[id.rawValue] != nil else { return false }
            if let last = state.rangesReadAt[id.rawValue], now - last < Self.rangesInterval { return false }
            state.rangesReadAt[id.rawValue] = now
            return true
        }
        guard due, let segments = try? journal.segments(of: id) else { return nil }
        return TaskRow.doneRanges(of: segments)
    }

    /// `rangesInterval` is the shortest time between two reads of a task's ranges, in nanoseconds.
    static let rangesInterval: UInt64 = 1_000_000_000
}
