import FerryKit
import FerryQueue
import Synchronization

/// `JournalRunner` stands for the engine when the RPC methods run in a short command's own
/// process (`ferry pause`, `ferry add`, `ferry limit` ... with no engine serving
/// `control.sock`): every change is made in the journal, and an engine that runs the queue
/// elsewhere (`ferry resume`, a `ferry get`) takes it up at its next poll, within a second.
/// There is no transfer here, so no event and no failure of its own.
///
/// Threads: any; its one mutable value (the limits a method set) sits in a `Mutex`.
public final class JournalRunner: QueueRunner {
    private let journal: Journal
    private let settings: Mutex<SchedulerConfiguration>
    public let failures = TaskFailures()

    /// `init(journal:defaultDirectory:)` is the runner of `journal`, with the default settings.
    public init(journal: Journal, defaultDirectory: String) {
        self.journal = journal
        settings = Mutex(SchedulerConfiguration(defaultDirectory: defaultDirectory))
    }

    public var configuration: SchedulerConfiguration {
        settings.withLock { $0 }
    }

    public var overallLimits: OverallLimits {
        get async {
            let kept = (try? journal.overallLimits()) ?? OverallLimits()
            return settings.withLock { $0.overallLimits(kept: kept) }
        }
    }

    public var isWaitingForNetwork: Bool { false }

    public func observe(_ handler: @escaping @Sendable (SchedulerEvent) -> Void) {}

    public func journalDidChange() async {}

    public func optionsChanged(_ ids: [TaskID]) async {}

    /// No engine runs here: nothing is run now.
    public func adopt(_ ids: [TaskID]) async -> Bool { false }

    public func resume(_ ids: [TaskID]) async throws(QueueError) -> [TaskID] {
        try requeue(ids, from: [.paused, .failed])
    }

    /// A task named that waits for a retry (queued) has no timer here to cut short: it stays.
    public func retry(_ ids: [TaskID]) async throws(QueueError) -> [TaskID] {
        try requeue(ids, from: [.failed])
    }

    private func requeue(_ ids: [TaskID], from states: Set<TaskState>) throws(QueueError) -> [TaskID] {
        guard !ids.isEmpty else { return [] }
        let moved = try journal.moveStates(ids, from: states, to: .queued)
        return ids.filter { moved[$0] != nil }
    }

    public func remove(_ ids: [TaskID], deleteFile: Bool) async throws(QueueError) -> Int {
        var records: [TaskRecord] = []
        if deleteFile {
            for id in ids { if let record = try journal.task(id) { records.append(record) } }
        }
        let removed = try journal.remove(ids)
        let directory = settings.withLock { $0.defaultDirectory }
        for record in records { _ = TaskFiles.delete(of: record, defaultDirectory: directory) }
        return removed
    }

    public func setLimits(maximumConcurrent: Int?, maximumPerHost: Int?) async {
        settings.withLock { configuration in
            if let maximumConcurrent { configuration.maximumConcurrent = max(1, maximumConcurrent) }
            if let maximumPerHost { configuration.maximumPerHost = max(1, maximumPerHost) }
        }
    }

    public func setOverallLimits(download: Int64??, upload: Int64??) async throws(QueueError) {
        try journal.setOverallLimits(download: download, upload: upload)
    }

    public func setMaxDownloadLimit(_ limit: Int64?, for id: TaskID) async throws(QueueError) {
        try journal.setMaxDownloadLimit(limit, for: id)
    }
}
