import FerryQueue

/// `TransferActivity` is the engine that runs the queue's transfers in the front end's
/// process, as `QueueController` sees it: a stream of events and the commands that act on
/// running tasks.
///
/// Without one the controller works on the journal alone: tasks are listed, added,
/// reordered, paused and removed, but nothing transfers. Every method may be called from
/// any thread and must return quickly; the outcome is reported through `events()` and the
/// journal.
public protocol TransferActivity: AnyObject, Sendable {
    /// `events()` is a new stream of the engine's events; the controller takes one at attach.
    func events() -> AsyncStream<ActivityEvent>
    /// `pause(_:)` stops a queued or running task and records it as paused.
    func pause(_ id: TaskID)
    /// `resume(_:)` queues a paused task again.
    func resume(_ id: TaskID)
    /// `retry(_:)` queues a failed task again.
    func retry(_ id: TaskID)
    /// `remove(_:deleteFile:)` stops a task, removes it from the journal and, when
    /// `deleteFile` is true, deletes its downloaded or partial file.
    func remove(_ id: TaskID, deleteFile: Bool)
    /// `journalDidChange()` tells the engine that tasks were added or reordered.
    func journalDidChange()
    /// `setLimits(_:)` changes the engine's concurrency limits while it runs; nothing by
    /// default (an engine that cannot change them).
    func setLimits(_ limits: TransferLimits)
    /// `setTaskLimit(_:_:)` changes one download's own speed limit (`nil`: none), applied at
    /// once when it runs; nothing by default.
    func setTaskLimit(_ id: TaskID, _ rate: Int64?)
    /// `stopEngine()` asks the engine to stop once the front end has quit (its transfers
    /// checkpointed and kept queued); nothing by default (an engine in the front end's own
    /// process stops with it).
    func stopEngine()
    /// `pause(_:)` pauses several tasks at once (`P`); one at a time by default.
    func pause(_ ids: [TaskID])
    /// `resume(_:)` queues several paused tasks again at once (`P`); one at a time by default.
    func resume(_ ids: [TaskID])
    /// `edit(_:then:)` changes the queue's rows as the user asked (an add, a move, new URLs,
    /// a purge), in order with the other commands, and calls `answer` with the outcome, from
    /// any thread. The engine makes the change: the front end writes no row itself.
    func edit(_ edit: QueueEdit, then answer: @escaping @Sendable (QueueEditOutcome) -> Void)
}

/// `QueueEdit` is a change of the queue's rows the user asked for in the front end.
public enum QueueEdit: Sendable {
    /// `add` queues a new task.
    case add(NewTask)
    /// `move` moves a task one place up (`up`) or down in the queue.
    case move(TaskID, up: Bool)
    /// `retarget` gives a download new URLs (a paused or failed one is queued again).
    case retarget(TaskID, [TransferURL])
    /// `purge` removes every task in the given finished states (files are kept).
    case purge(Set<TaskState>)
}

/// `QueueEditOutcome` is what became of a `QueueEdit`.
public enum QueueEditOutcome: Sendable, Equatable {
    /// `done` means the change was made; `count` is the tasks a purge removed (else 1).
    case done(count: Int)
    /// `refused` means the task could not take it now (a retarget of a running or finished
    /// download).
    case refused
    /// `failed` means the change could not be made; the text says why.
    case failed(String)
}

extension TransferActivity {
    public func pause(_ ids: [TaskID]) { ids.forEach { pause($0) } }
    public func resume(_ ids: [TaskID]) { ids.forEach { resume($0) } }
    public func stopEngine() {}
    public func setLimits(_ limits: TransferLimits) {}
    public func setTaskLimit(_ id: TaskID, _ rate: Int64?) {}
}
