import FerryKit
import FerryQueue

extension DownloadStatus {
    /// `bitfield(of:engine:total:completed:)` is aria2's `bitfield` of a task (`PieceMap`):
    /// a split download's pieces come from its ranges' durable ends in the journal.
    static func bitfield(of record: TaskRecord, engine: RPCEngine, total: Int64, completed: Int64) -> String {
        guard total > 0 else { return "" }
        let segments = record.state == .done ? [] : ((try? engine.journal.segments(of: record.id)) ?? [])
        var done = PieceMap.doneRanges(of: record, segments: segments, completed: completed)
        if record.state == .done { done = [(0, total)] }
        return PieceMap.bitfield(done: done, total: total)
    }
}
