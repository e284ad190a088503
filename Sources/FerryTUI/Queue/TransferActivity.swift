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
}

extension TransferActivity {
    public func pause(_ ids: [TaskID]) { ids.forEach { pause($0) } }
    public func resume(_ ids: [TaskID]) { ids.forEach { resume($0) } }
    public func stopEngine() {}
    public func setLimits(_ limits: TransferLimits) {}
    public func setTaskLimit(_ id: TaskID, _ rate: Int64?) {}
}
