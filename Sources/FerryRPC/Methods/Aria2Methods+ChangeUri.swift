import FerryKit
import FerryQueue

extension Aria2Methods {
    /// `changeUri(gid, fileIndex, delUris, addUris, position)`: as aria2, removes each of
    /// `delUris` once from the file's URIs and inserts `addUris` at `position` (0 the first;
    /// the end by default), answering `[deleted, added]`. The task keeps its bytes only if
    /// the source it then resumes from serves the same representation (`Journal.retarget`:
    /// `If-Range`); its state does not change (a link that expired waits paused: `unpause`
    /// it). A task that runs is refused (pause it first), as is a list left empty.
    @Sendable static func changeUri(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let id = try call.gid(0)
        guard call.optional(1)?.integerValue == 1 else { throw RPCError.failed("fileIndex must be 1: a task of Ferry has one file") }
        let deleting = (call.optional(2)?.arrayValue ?? []).compactMap(\.stringValue)
        let adding = try AddOptions.urls(call.optional(3)?.arrayValue ?? [])
        let engine = call.engine
        let record = try engine.record(id)
        var urls = record.spec.urls
        var deleted = 0
        for uri in deleting {
            if let index = urls.firstIndex(where: { $0.string == uri }) {
                urls.remove(at: index)
                deleted += 1
            }
        }
        let position = call.optional(4)?.integerValue.map { Int(min(max($0, 0), Int64(urls.count))) } ?? urls.count
        urls.insert(contentsOf: adding, at: position)
        guard !urls.isEmpty else { throw RPCError.failed("GID#\(GID.string(for: id)) would have no URI left") }
        guard deleted > 0 || !adding.isEmpty else { return .array([.integer(0), .integer(0)]) }
        let changed = try engine.journalCall { () throws(QueueError) in try engine.journal.retarget(id, to: urls) }
        guard changed else {
            throw RPCError.failed("GID#\(GID.string(for: id)) cannot change its URIs now: pause it first (a finished task cannot)")
        }
        await engine.runner.journalDidChange()
        return .array([.integer(Int64(deleted)), .integer(Int64(adding.count))])
    }
}
