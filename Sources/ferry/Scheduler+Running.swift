import FerryQueue

extension Scheduler {
    /// `startRunning()` begins `run(untilIdle: false)` and returns once it runs (the task starts
    /// on this actor at once), so a `stop()` that follows can never come before it and be
    /// lost. The returned task ends when the scheduler has stopped.
    func startRunning() -> Task<Void, Never> {
        Task.immediate { await self.run(untilIdle: false) }
    }
}
