import FerryQueue

extension Scheduler {
    /// `startRunning(untilIdle:)` begins `run(untilIdle:)` and returns once it runs (the task
    /// starts on this actor at once), so a `stop()` that follows can never come before it and
    /// be lost. The returned task ends when the scheduler has stopped.
    func startRunning(untilIdle: Bool = false) -> Task<Void, Never> {
        Task.immediate { await self.run(untilIdle: untilIdle) }
    }
}
