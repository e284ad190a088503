import Dispatch

/// `WorkerExecutor` is a task executor that runs jobs on a serial dispatch queue: the
/// controller's listener for engine events runs on the controller's worker, in order with
/// its commands, and never waits for a thread of the shared concurrency pool (which other
/// work may keep busy).
final class WorkerExecutor: TaskExecutor {
    private let queue: DispatchQueue

    /// `init(queue:)` runs every job enqueued on this executor on `queue`.
    init(queue: DispatchQueue) { self.queue = queue }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
