/// `StopIntent` is why the `Scheduler` cancelled a transfer, and so what its task becomes.
enum StopIntent: Equatable {
    /// `pause` leaves the task `paused`.
    case pause
    /// `requeue` puts the task back to `queued` (the scheduler is stopping).
    case requeue
    /// `cancel` leaves the task `cancelled`.
    case cancel
    /// `removed` means the row is gone; nothing is recorded.
    case removed
}
