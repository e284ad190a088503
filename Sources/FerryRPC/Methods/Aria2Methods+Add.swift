import FerryKit
import FerryQueue
import Foundation

extension Aria2Methods {
    /// `addUri(uris, options, position)`: one task whose URLs are mirrors of one file, as in
    /// aria2. Options: see `AddOptions`; the task options `changeGlobalOption` set apply where
    /// the call gives none. An option Ferry does not use is accepted, as aria2's clients send
    /// many: the answer is the GID as aria2's, the daemon's log names the option, and the
    /// task's `getOption` lists it in `ferry-ignored`. Everything is checked before anything
    /// is queued; the task is written in one journal transaction, at its `position` among the
    /// waiting tasks when one is given (0 the first).
    @Sendable static func addUri(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        guard let list = call.optional(0)?.arrayValue, !list.isEmpty else {
            throw RPCError.invalidParams("parameter 1 must be a non-empty list of URIs")
        }
        let urls = try AddOptions.urls(list)
        let engine = call.engine
        var given = try call.object(1)
        for (key, values) in engine.options.taskDefaults where given[key] == nil {
            given[key] = values.count == 1 ? .string(values[0]) : .array(values.map { .string($0) })
        }
        let options = try AddOptions(given, origin: call.origin)
        let task = options.task(urls: urls, defaultDirectory: engine.newTaskDirectory)
        let position = options.paused ? nil : call.optional(2)?.integerValue
        let id = try engine.journalCall { () throws(QueueError) in
            guard let position else { return try engine.journal.insert(task) }
            return try engine.journal.insert(task, atPlaceOf: Int(min(max(position, 0), Int64(Int32.max))), among: waitingStates)
        }
        engine.options.setIgnored(options.ignored, for: id)
        await engine.runner.journalDidChange()
        return .string(GID.string(for: id))
    }
}
