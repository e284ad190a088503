import FerryQueue
import FerryRPC

/// `DaemonDownloads` records `ferry get`'s downloads with the daemon running the queue: new
/// ones through `ferry.add` (with the run's options: directory, name, headers, checksum,
/// speed cap, overwrite, retries), those of an earlier run of the same command queued again
/// through `ferry.resume`, their speed cap changed through `aria2.changeOption`. The journal
/// is only read, for the earlier runs' downloads.
struct DaemonDownloads: GetTaskStore {
    /// `journal` is the queue's journal, opened without the engine lock (the daemon holds it).
    let journal: Journal
    /// `daemon` runs the queue.
    let daemon: DaemonClient
    /// `retries` is the run's `--retries`, recorded with each new task (a local run gives it
    /// to its own scheduler instead).
    let retries: Int

    func requeue(_ record: TaskRecord, speedCap: Int64?) async throws -> DownloadJournal.Entry {
        let gid = JSONValue.string(GID.string(for: record.id))
        if record.spec.options.maxDownloadLimit != speedCap {
            _ = try await daemon.call("aria2.changeOption", [gid, ["max-download-limit": .string(String(speedCap ?? 0))]])
        }
        if record.state == .paused || record.state == .failed {
            _ = try await daemon.call("ferry.resume", [TaskSet.ids([record.id]).json])
        }
        return DownloadJournal.Entry(requeued: record)
    }

    func insert(_ task: NewTask) async throws -> DownloadJournal.Entry {
        var task = task
        task.spec.options.retries = retries
        let request = TaskRequest.json(task)
        let id = try await daemon.answer("ferry.add", [[request]]) { answer in
            answer.arrayValue?.first?.stringValue.flatMap(GID.taskID)
        }
        return DownloadJournal.Entry(id: id, resumesAt: 0)
    }
}
