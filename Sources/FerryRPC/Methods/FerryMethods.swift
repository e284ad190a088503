import FerryKit
import FerryQueue
import Foundation

/// `FerryMethods` are Ferry's own methods for actions aria2's protocol has no method for:
/// the command line's `add`, `pause`, `resume`, `retry`, `remove` and `move` acting through a
/// running daemon with the same effect and answers as on the journal (`docs/RPC.md`); the
/// terminal UI sends its retries and removals here too.
///
/// Tasks are named by GID, as in aria2's methods; a `TaskSet` parameter is one GID, a list of
/// GIDs or `"all"`. Numbers in answers are JSON numbers, as in `FrontEndMethods`.
public enum FerryMethods {
    /// `table` is every method of Ferry's own.
    public static let table: [RPCMethod] = [
        RPCMethod("ferry.add", add),
        RPCMethod("ferry.addUpload", addUpload),
        RPCMethod("ferry.pause", pause),
        RPCMethod("ferry.resume", resume),
        RPCMethod("ferry.retry", retry),
        RPCMethod("ferry.remove", remove),
        RPCMethod("ferry.purge", purge),
        RPCMethod("ferry.move", move),
        RPCMethod("ferry.retarget", retarget),
        RPCMethod("ferry.engine", engine),
        RPCMethod("ferry.adopt", adopt),
    ]

    /// `engine()`: what this engine is, `{"pid": N, "runs": "queue", "command": "daemon"}`
    /// for an engine that runs the whole queue (a daemon, `ferry resume`) or
    /// `"runs": "own-tasks"` for one that runs only the tasks its command gave it
    /// (`ferry get`): a task added there waits for the next engine that runs the queue.
    @Sendable static func engine(_ call: RPCCall) throws(RPCError) -> JSONValue {
        ["pid": .integer(Int64(getpid())), "runs": .string(call.engine.runsWholeQueue ? "queue" : "own-tasks"),
         "command": .string(call.engine.command)]
    }

    /// `add(tasks)`: every `TaskRequest` checked, then all inserted in one transaction, in
    /// order; answers their GIDs.
    @Sendable static func add(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        guard let list = call.optional(0)?.arrayValue else {
            throw RPCError.invalidParams("parameter 1 must be a list of tasks")
        }
        let engine = call.engine
        var tasks: [NewTask] = []
        for item in list {
            tasks.append(try TaskRequest.task(item, defaultDirectory: engine.defaultDirectory, origin: call.origin))
        }
        let ids = try engine.journalCall { () throws(QueueError) in try engine.journal.insert(tasks) }
        await engine.runner.journalDidChange()
        return .array(ids.map { .string(GID.string(for: $0)) })
    }

    /// `addUpload(uris, upload[, options])`: one upload queued, as `ferry.add` takes it (the
    /// `upload` object, with `"resumable"` for one that resumes from the server's offset);
    /// answers its GID, as `aria2.addUri` does.
    @Sendable static func addUpload(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        guard let uris = call.optional(0), uris.arrayValue != nil else { throw RPCError.invalidParams("parameter 1 must be a list of URIs") }
        guard let upload = call.optional(1), upload.objectValue != nil else { throw RPCError.invalidParams("parameter 2 must be the upload (an object)") }
        var item: [String: JSONValue] = ["uris": uris, "upload": upload]
        if let options = call.optional(2) { item["options"] = options }
        let engine = call.engine
        let task = try TaskRequest.task(.object(item), defaultDirectory: engine.defaultDirectory, origin: call.origin)
        let ids = try engine.journalCall { () throws(QueueError) in try engine.journal.insert([task]) }
        await engine.runner.journalDidChange()
        guard let id = ids.first else { throw RPCError.invalidParams("the upload was not added") }
        return .string(GID.string(for: id))
    }

    /// `pause(tasks)`: queued and running tasks paused (see `aria2.pause`).
    @Sendable static func pause(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let tasks = try call.taskSet(0)
        let moved = try await call.engine.pause(tasks)
        return try report(call, tasks, changed: Set(moved.keys))
    }

    /// `resume(tasks)`: paused and failed tasks queued again (`ferry resume ID...`).
    @Sendable static func resume(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let tasks = try call.taskSet(0)
        let wanted = try call.engine.ids(tasks, in: [.paused, .failed])
        let engine = call.engine
        let moved = try await engine.runnerCall { () async throws(QueueError) in try await engine.runner.resume(wanted) }
        return try report(call, tasks, changed: Set(moved))
    }

    /// `adopt(tasks)`: this engine runs the named queued tasks now, as its own (an engine of
    /// one `ferry get` takes the downloads of another `ferry get` of the same queue); answers
    /// `true`, or `false` when it cannot (no engine runs here, or its run is ending: the
    /// caller runs them itself once the queue is free). An engine of the whole queue runs
    /// them anyway.
    @Sendable static func adopt(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let tasks = try call.taskSet(0)
        let wanted = try call.engine.ids(tasks, in: [.queued])
        return .bool(await call.engine.runner.adopt(wanted))
    }

    /// `retry(tasks)`: failed tasks queued again from their first mirror; a task named that
    /// waits for a retry starts at once.
    @Sendable static func retry(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let tasks = try call.taskSet(0)
        let wanted = try call.engine.ids(tasks, in: tasks.named == nil ? [.failed] : [.failed, .queued])
        let engine = call.engine
        let moved = try await engine.runnerCall { () async throws(QueueError) in try await engine.runner.retry(wanted) }
        return try report(call, tasks, changed: Set(moved))
    }

    private static func report(_ call: RPCCall, _ tasks: TaskSet, changed: Set<TaskID>) throws(RPCError) -> JSONValue {
        let journal = call.engine.journal
        return try call.engine.journalCall { () throws(QueueError) in
            try StateChangeReport.make(journal, named: tasks.named, changed: changed).json
        }
    }

    /// `move(gid, how, place)`: `how` is `to` (with `place`, 1 the first), `up`, `down`,
    /// `top` or `bottom`; answers `{"moved": true|false, "place": N}`.
    @Sendable static func move(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let id = try call.gid(0)
        let how = try call.string(1)
        let engine = call.engine
        let step: Reordering?
        switch how {
        case "to": step = nil
        case "up": step = .up
        case "down": step = .down
        case "top": step = .toTop
        case "bottom": step = .toBottom
        default: throw RPCError.invalidParams("how must be to, up, down, top or bottom")
        }
        let target = step == nil ? try call.integer(2) : 1
        guard target >= 1 else { throw RPCError.invalidParams("the place must be 1 or more") }
        let moved: Bool
        let place: Int
        do throws(QueueError) {
            if let step {
                moved = try engine.journal.move(id, step)
            } else {
                moved = try engine.journal.move(id, toPlace: Int(min(target, Int64(Int32.max))))
            }
            place = try engine.journal.place(of: id)
        } catch {
            if case .journal(.taskNotFound) = error { throw RPCError.notFound(id) }
            throw RPCError.failed("journal: \(error.description)")
        }
        if moved { await engine.runner.journalDidChange() }
        return ["moved": .bool(moved), "place": .integer(Int64(place))]
    }
}

extension RPCDispatcher {
    /// `methods` is aria2's table and Ferry's own, what a daemon answers.
    public static let methods = Aria2Methods.table + FrontEndMethods.table + FerryMethods.table
}

extension RPCCall {
    /// `taskSet(_:)` is the `TaskSet` at `index`.
    func taskSet(_ index: Int) throws(RPCError) -> TaskSet {
        guard let value = optional(index) else {
            throw RPCError.invalidParams("parameter \(index + 1) must be a GID, a list of GIDs or \"all\"")
        }
        return try TaskSet(value)
    }

    /// `flag(_:)` is the boolean at `index` (`true`, or the string `"true"`); absent is `false`.
    func flag(_ index: Int) throws(RPCError) -> Bool {
        switch optional(index) {
        case nil, .null?, .bool(false)?, .string("false")?: return false
        case .bool(true)?, .string("true")?: return true
        default: throw RPCError.invalidParams("parameter \(index + 1) must be true or false")
        }
    }
}
