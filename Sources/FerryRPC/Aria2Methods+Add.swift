import FerryKit
import FerryQueue
import Foundation

extension Aria2Methods {
    /// `addUri(uris, options, position)`: one task whose URLs are mirrors of one file, as in
    /// aria2. Options: see `AddOptions`; others are ignored. Everything is checked before
    /// anything is queued.
    @Sendable static func addUri(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        guard let list = call.optional(0)?.arrayValue, !list.isEmpty else {
            throw RPCError.invalidParams("parameter 1 must be a non-empty list of URIs")
        }
        let urls = try AddOptions.urls(list)
        let options = try AddOptions(try call.object(1))
        let engine = call.engine
        let task = options.task(urls: urls)
        let id = try engine.journalCall { () throws(QueueError) in try engine.journal.insert(task) }
        if let position = call.optional(2)?.integerValue, !options.paused {
            try engine.journalCall { () throws(QueueError) in
                let waiting = try engine.journal.tasks(in: waitingStates, limit: 1, offset: Int(min(max(position, 0), Int64(Int32.max))))
                if let other = waiting.first, other.id != id {
                    _ = try engine.journal.move(id, toPlace: try engine.journal.place(of: other.id))
                }
            }
        }
        await engine.scheduler.journalDidChange()
        return .string(GID.string(for: id))
    }
}
