import FerryKit
import FerryQueue

extension FerryMethods {
    /// `remove(tasks, deleteFiles)`: the tasks' rows are deleted (a running transfer stops);
    /// with `deleteFiles` also their finished and partial files. Waiting tasks get aria2's
    /// `onDownloadStop`, as for `aria2.remove`. Answers `{"removed": N, "deleted": N}`.
    @Sendable static func remove(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let tasks = try call.taskSet(0)
        let deleteFiles = try call.flag(1)
        let engine = call.engine
        let ids = try engine.ids(tasks, in: Set(TaskState.allCases))
        let records = deleteFiles ? try engine.journalCall { () throws(QueueError) in try engine.journal.tasks(ids: ids) } : []
        // The files there before, to count those deleted (a running task's .part included:
        // its cancelled transfer may still write to it, unlinked, until it ends).
        let present = records.flatMap { TaskFiles.paths(of: $0, defaultDirectory: engine.defaultDirectory) }.filter(SystemCall.exists)
        // Waiting tasks leave the queue first (notified), so none of them starts meanwhile.
        _ = try await engine.move(.ids(ids), from: [.queued, .paused], to: .cancelled, notifying: "aria2.onDownloadStop")
        let removed = try await engine.runnerCall { () async throws(QueueError) in try await engine.runner.remove(ids, deleteFile: false) }
        _ = deletingFiles(of: records, engine: engine)
        let deleted = present.filter { !SystemCall.exists($0) }.count
        return ["removed": .integer(Int64(removed)), "deleted": .integer(Int64(deleted))]
    }

    /// `purge(states, deleteFiles)`: every task in the given finished states (`done`, `failed`,
    /// `cancelled`) removed, with its files if asked. Answers as `remove`.
    @Sendable static func purge(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        guard let names = call.optional(0)?.arrayValue, !names.isEmpty else {
            throw RPCError.invalidParams("parameter 1 must be a list of states")
        }
        var states: Set<TaskState> = []
        for name in names {
            guard let state = name.stringValue.flatMap(TaskState.init(rawValue:)), [.done, .failed, .cancelled].contains(state) else {
                throw RPCError.invalidParams("the states must be done, failed or cancelled")
            }
            states.insert(state)
        }
        let deleteFiles = try call.flag(1)
        let engine = call.engine
        let journal = engine.journal
        let records = deleteFiles ? try engine.records(in: states) : []
        let (removed, gone) = try engine.journalCall { () throws(QueueError) in
            let removed = try journal.removeAll(in: states)
            // A task that left the state meanwhile (a retry) was not removed: its files stay.
            var gone: [TaskRecord] = []
            for record in records where try journal.task(record.id) == nil {
                gone.append(record)
            }
            return (removed, gone)
        }
        let deleted = deletingFiles(of: gone, engine: engine)
        await engine.runner.journalDidChange()
        return ["removed": .integer(Int64(removed)), "deleted": .integer(Int64(deleted))]
    }

    /// `deletingFiles(of:engine:)` deletes the records' finished and partial files and counts them.
    private static func deletingFiles(of records: [TaskRecord], engine: RPCEngine) -> Int {
        records.reduce(0) { $0 + TaskFiles.delete(of: $1, defaultDirectory: engine.defaultDirectory).count }
    }
}
