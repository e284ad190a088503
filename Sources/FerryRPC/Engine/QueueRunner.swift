import FerryKit
import FerryQueue

/// `QueueRunner` is what the RPC methods ask of whoever runs the queue: the `Scheduler` of a
/// running engine, or a `JournalRunner` when the methods run in a short command's own process
/// and no engine runs there (`QueueClient` in the command line).
///
/// Every change a method makes goes to the journal first; the runner then acts on it at
/// once (a scheduler stops, starts or re-plans transfers) or leaves it to whichever engine
/// reads the journal next (a `JournalRunner`). A scheduler keeps a journal error for its run
/// (`lastJournalError`) and does not throw; a `JournalRunner` throws it to the caller.
public protocol QueueRunner: Sendable {
    /// `configuration` is the runner's settings: limits, default directory, connection settings.
    var configuration: SchedulerConfiguration { get async }
    /// `overallLimits` are the budgets all transfers share now.
    var overallLimits: OverallLimits { get async }
    /// `isWaitingForNetwork` is true while the runner waits for a route to come back.
    var isWaitingForNetwork: Bool { get async }
    /// `failures` is the kind of each task's last failure, as far as this runner saw it.
    var failures: TaskFailures { get }

    /// `observe(_:)` calls `handler` with every event from now on (a `JournalRunner` has none).
    func observe(_ handler: @escaping @Sendable (SchedulerEvent) -> Void)
    /// `journalDidChange()` says that rows changed: the runner acts on them now.
    func journalDidChange() async
    /// `optionsChanged(_:)` says that the options of tasks changed before they started.
    func optionsChanged(_ ids: [TaskID]) async
    /// `resume(_:)` queues paused or failed tasks again and returns those queued.
    func resume(_ ids: [TaskID]) async throws(QueueError) -> [TaskID]
    /// `retry(_:)` queues failed tasks again from their first mirror and returns those concerned.
    func retry(_ ids: [TaskID]) async throws(QueueError) -> [TaskID]
    /// `remove(_:deleteFile:)` removes tasks (stopping their transfers) and returns how many existed.
    func remove(_ ids: [TaskID], deleteFile: Bool) async throws(QueueError) -> Int
    /// `setLimits(maximumConcurrent:maximumPerHost:)` changes the concurrency limits (`nil` keeps one).
    func setLimits(maximumConcurrent: Int?, maximumPerHost: Int?) async
    /// `setOverallLimits(download:upload:)` records new shared budgets (`nil` keeps one,
    /// `.some(nil)` removes it) and applies them.
    func setOverallLimits(download: Int64??, upload: Int64??) async throws(QueueError)
    /// `setMaxDownloadLimit(_:for:)` records a task's own cap and applies it.
    func setMaxDownloadLimit(_ limit: Int64?, for id: TaskID) async throws(QueueError)
    /// `adopt(_:)` runs queued tasks of another command now (an engine of one `ferry get`
    /// takes another's); `false` when it cannot (no engine runs them, or its run is ending).
    func adopt(_ ids: [TaskID]) async -> Bool
}

extension Scheduler: QueueRunner {}
