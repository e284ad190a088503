/// `DownloadAttemptObserver` hears about the attempts of a ``ResumableDownload``: to show
/// progress, retries and errors. Every method does nothing by default.
public protocol DownloadAttemptObserver: Sendable {
    /// An attempt's task was created and is about to start (`attempt` counts from 1).
    func attemptStarted(_ task: TransferTask, attempt: Int)
    /// An attempt's task ended with `outcome`.
    func attemptEnded(_ task: TransferTask, outcome: Result<TransferResult, FerryError>)
    /// The download will try again after `delay` seconds, because attempt `attempt` failed with `error`.
    func willRetry(after error: FerryError, delay: Double, attempt: Int)
}

extension DownloadAttemptObserver {
    public func attemptStarted(_ task: TransferTask, attempt: Int) {}
    public func attemptEnded(_ task: TransferTask, outcome: Result<TransferResult, FerryError>) {}
    public func willRetry(after error: FerryError, delay: Double, attempt: Int) {}
}
