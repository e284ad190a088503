import FerryQueue
import FerryRPC

/// `QueuedDownloads` records `ferry get`'s downloads with the engine that runs them, through
/// its `EngineDoor` (the run's own engine in process, or the daemon or other `ferry get`
/// holding the queue): new ones through `ferry.add` (with the run's options: directory, name,
/// headers, checksum, speed cap, overwrite, retries), those of an earlier run of the same
/// command queued again through `ferry.resume`, this run's settings given to them through
/// `aria2.changeOption`. The journal is only read, for the earlier runs' downloads.
struct QueuedDownloads {
    /// `journal` is the queue's journal.
    let journal: Journal
    /// `door` reaches the engine that runs the queue.
    let door: any EngineDoor
    /// `retries` is the run's `--retries`, recorded with each new task.
    let retries: Int

    func requeue(_ record: TaskRecord, speedCap: Int64?) async throws -> DownloadJournal.Entry {
        if record.spec.options.maxDownloadLimit != speedCap {
            try await change(record, ["max-download-limit": .string(String(speedCap ?? 0))])
        }
        // A task left `running` by an engine killed is queued again when its next engine
        // starts running (`Journal.requeueInterrupted`); one an engine runs now goes on.
        if record.state == .paused || record.state == .failed {
            _ = try await door.call("ferry.resume", [TaskSet.ids([record.id]).json])
        }
        return DownloadJournal.Entry(requeued: record)
    }

    func insert(_ task: NewTask) async throws -> DownloadJournal.Entry {
        var task = task
        task.spec.options.retries = retries
        let request = TaskRequest.json(task)
        let id = try await door.answer("ferry.add", [[request]]) { answer in
            answer.arrayValue?.first?.stringValue.flatMap(GID.taskID)
        }
        return DownloadJournal.Entry(id: id, resumesAt: 0)
    }

    /// `adopt(_:of:)` gives a download queued again this run's `-x` and `--min-split-size`,
    /// where given (a task started with N connections resumes with another N).
    func adopt(_ options: TaskOptions, of record: TaskRecord) async throws {
        var changes: [String: JSONValue] = [:]
        if let connections = options.connections, connections != record.spec.options.connections {
            changes["split"] = .string(String(connections))
            changes["max-connection-per-server"] = .string(String(connections))
        }
        if let size = options.minSplitSize, size != record.spec.options.minSplitSize {
            changes["min-split-size"] = .string(String(size))
        }
        guard !changes.isEmpty else { return }
        try await change(record, .object(changes))
    }

    /// `adopt(_:of:)` gives a download queued again this run's trust, login, proxy and cookie
    /// settings (each option given replaces the task's own; an earlier run's option this run
    /// does not give stays). Whether TLS is checked is always said, so an earlier run's `-k`
    /// never outlives a run without it.
    func adopt(_ connection: ConnectionSettings, of record: TaskRecord) async throws {
        guard connection != record.spec.connection else { return }
        var options = TaskRequest.connectionOptions(connection)
        options["check-certificate"] = connection.insecure ? "false" : "true"
        try await change(record, .object(options))
    }

    /// `adopt(_:of:)` gives a download queued again this run's `--checksum`, or none: what the
    /// command line says is what counts, never an earlier run's checksum.
    func adopt(_ checksum: Checksum?, of record: TaskRecord) async throws {
        guard checksum != record.spec.checksum else { return }
        try await change(record, ["checksum": .string(checksum?.description ?? "")])
    }

    /// `forget(_:)` removes a finished download's row (`aria2.removeDownloadResult`), once
    /// this run has queued it again (its file is no longer the one Ferry saved).
    func forget(_ record: TaskRecord) async throws {
        _ = try await door.call("aria2.removeDownloadResult", [.string(GID.string(for: record.id))])
    }

    private func change(_ record: TaskRecord, _ options: JSONValue) async throws {
        _ = try await door.call("aria2.changeOption", [.string(GID.string(for: record.id)), options])
    }
}
