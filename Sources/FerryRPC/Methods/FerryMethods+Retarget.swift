import FerryKit
import FerryQueue

extension FerryMethods {
    /// `retarget(gid, uris)`: a download gets new URLs and keeps its bytes only if the new
    /// source serves the same representation (its next attempt resumes with `If-Range`; see
    /// `Journal.retarget`). A paused or failed task (a link that expired waits paused) is
    /// queued again. Answers `{"retargeted": true|false, "state": ...}`: false for an upload,
    /// a running task (pause it first) or a finished one.
    @Sendable static func retarget(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let id = try call.gid(0)
        guard let list = call.optional(1)?.arrayValue, !list.isEmpty else {
            throw RPCError.invalidParams("parameter 2 must be a non-empty list of URLs")
        }
        let urls = try AddOptions.urls(list)
        let engine = call.engine
        guard try engine.journalCall({ () throws(QueueError) in try engine.journal.task(id) }) != nil else { throw RPCError.notFound(id) }
        let changed = try engine.journalCall { () throws(QueueError) in try engine.journal.retarget(id, to: urls) }
        if changed {
            let state = try engine.journalCall { () throws(QueueError) in try engine.journal.task(id)?.state }
            if state == .paused || state == .failed {
                _ = try await engine.runnerCall { () async throws(QueueError) in try await engine.runner.resume([id]) }
            } else {
                await engine.runner.journalDidChange()
            }
        }
        let state = try engine.journalCall { () throws(QueueError) in try engine.journal.task(id)?.state }
        guard let state else { throw RPCError.notFound(id) }
        return .object(["retargeted": .bool(changed), "state": .string(state.rawValue)])
    }
}
