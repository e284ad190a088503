import FerryQueue

/// `SchedulerActivity` is the `TransferActivity` of a queue `Scheduler` running in the front
/// end's process: its events map one-for-one to `ActivityEvent`s, and the user's commands
/// are forwarded to it in the order they were given (one consumer drains them).
///
/// Thread-safe: every method may be called from any thread and returns at once.
public final class SchedulerActivity: TransferActivity {
    /// `scheduler` runs the transfers.
    public let scheduler: Scheduler
    private let commands: AsyncStream<@Sendable (Scheduler) async -> Void>.Continuation

    /// `init(scheduler:)` forwards to `scheduler`; it does not start it.
    public init(scheduler: Scheduler) {
        self.scheduler = scheduler
        let (stream, commands) = AsyncStream<@Sendable (Scheduler) async -> Void>.makeStream()
        self.commands = commands
        Task { [scheduler] in
            for await command in stream { await command(scheduler) }
        }
    }

    deinit { commands.finish() }

    public func events() -> AsyncStream<ActivityEvent> {
        let source = scheduler.events()
        return AsyncStream { continuation in
            let relay = Task {
                for await event in source {
                    if let mapped = Self.activityEvent(event) { continuation.yield(mapped) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
        }
    }

    /// `activityEvent(_:)` is the `ActivityEvent` that says what `event` says; `nil` for
    /// `transferred` (the row stays running, at 100 %, until `ended`).
    static func activityEvent(_ event: SchedulerEvent) -> ActivityEvent? {
        switch event {
        case .transferred, .willRetry: nil
        case .note(let id, let text): .note(id, text)
        case .started(let id): .started(id)
        case .progress(let id, let progress): .progress(id, progress)
        case .ended(let id, let state, let error, _): .ended(id, state, error: error)
        case .journalChanged: .journalChanged
        }
    }

    public func pause(_ id: TaskID) { commands.yield { await $0.pause([id]) } }
    public func resume(_ id: TaskID) { commands.yield { await $0.resume([id]) } }
    public func retry(_ id: TaskID) { commands.yield { await $0.retry([id]) } }
    public func remove(_ id: TaskID, deleteFile: Bool) { commands.yield { await $0.remove([id], deleteFile: deleteFile) } }
    public func journalDidChange() { commands.yield { await $0.journalDidChange() } }
    public func pause(_ ids: [TaskID]) { commands.yield { await $0.pause(ids) } }
    public func resume(_ ids: [TaskID]) { commands.yield { await $0.resume(ids) } }
    public func setTaskLimit(_ id: TaskID, _ rate: Int64?) {
        commands.yield { try? await $0.setMaxDownloadLimit(rate, for: id) }
    }
    /// `edit(_:then:)` makes the change on the scheduler's journal and tells the scheduler (a
    /// retargeted task that was paused or failed is resumed through it).
    public func edit(_ edit: QueueEdit, then answer: @escaping @Sendable (QueueEditOutcome) -> Void) {
        commands.yield { scheduler in
            let journal = await scheduler.journal
            let outcome = JournalEdits.apply(edit, to: journal, requeue: false)
            if case .retarget(let id, _) = edit, outcome == .done(count: 1),
               let state = try? journal.task(id)?.state, state == .paused || state == .failed {
                _ = await scheduler.resume([id])
            } else if case .done = outcome {
                await scheduler.journalDidChange()
            }
            answer(outcome)
        }
    }
    public func setLimits(_ limits: TransferLimits) {
        commands.yield { scheduler in
            await scheduler.setLimits(maximumConcurrent: limits.maximumConcurrent, maximumPerHost: limits.maximumPerHost)
            if await scheduler.overallLimits.download != limits.overallDownload {
                try? await scheduler.setOverallLimits(download: .some(limits.overallDownload))
            }
        }
    }
}
