import FerryKit

/// `ReportingObserver` shows the attempts of one resumable download through the ``Reporter``.
struct ReportingObserver: DownloadAttemptObserver {
    let reporter: Reporter
    let job: Int
    let label: String

    func attemptStarted(_ task: TransferTask, attempt: Int) {
        reporter.started(job: job, label: label, task: task, attempt: attempt)
    }

    func attemptEnded(_ task: TransferTask, outcome: Result<TransferResult, FerryError>) {
        // An interrupted run says so once, with how to resume, instead of per download.
        if case .failure(.cancelled) = outcome { return }
        reporter.ended(job: job, task: task, outcome: outcome)
    }

    func willRetry(after error: FerryError, delay: Double, attempt: Int) {
        reporter.retrying(job: job, label: label, error: error, delay: delay, attempt: attempt)
    }
}
