import Foundation
import Synchronization

/// `ResumableDownload` runs one download to the end: attempts with a ``RetryPolicy``, every
/// retry resuming from the latest durable offset.
///
/// Each attempt is a task with its own ``ResumableDownloadDelegate``; an ``AttemptBudget``
/// (the queue's rule too) decides what follows a failure: transport errors, stalls,
/// truncations, 408, 429 and 5xx are retried with exponential backoff (Retry-After honoured
/// up to the cap); other failures end the download. A `.part` the server cannot continue (a
/// 416 for another length) starts over at once, at most ``maximumRestarts`` times.
/// The wait between attempts goes through an injected ``RetryClock``. Safe to use from any thread.
public final class ResumableDownload: Sendable {
    /// Immediate fresh starts allowed after a resume the server cannot serve, `3`
    /// (``AttemptBudget/maximumRestarts``).
    public static let maximumRestarts = AttemptBudget.maximumRestarts

    /// The request as given (a resume goes to the URL that served the bytes).
    public let request: Request
    /// Where the file goes.
    public let destination: DownloadDestination
    /// Checkpoints, partial files, checksum and naming.
    public let policy: DownloadPolicy
    /// Retries and backoff.
    public let retryPolicy: RetryPolicy

    private struct State {
        var resume: ResumeData?
        var task: TransferTask?
        var waiting: Task<Void, Never>?
        var cancelled = false
    }

    private let session: SessionManager
    private let retryClock: any RetryClock
    private let random: @Sendable () -> Double
    private let observer: (any DownloadAttemptObserver)?
    private let onCheckpoint: @Sendable (ResumeData) -> Void
    private let state: Mutex<State>

    /// Makes a download; nothing happens until ``run()``.
    ///
    /// - Parameters:
    ///   - resumeFrom: where an earlier run stopped (from the journal); `nil` starts from zero.
    ///   - retryClock: waits between attempts, ``TaskRetryClock`` by default.
    ///   - random: the jitter source, 0...1, uniform by default.
    ///   - observer: hears about attempts and retries; `nil` by default.
    ///   - checkpoint: receives every durable ``ResumeData`` (on the engine thread).
    public init(
        session: SessionManager,
        request: Request,
        destination: DownloadDestination,
        policy: DownloadPolicy = DownloadPolicy(),
        retryPolicy: RetryPolicy = RetryPolicy(),
        resumeFrom: ResumeData? = nil,
        retryClock: any RetryClock = TaskRetryClock(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        observer: (any DownloadAttemptObserver)? = nil,
        checkpoint: @escaping @Sendable (ResumeData) -> Void = { _ in }
    ) {
        self.session = session
        self.request = request
        self.destination = destination
        self.policy = policy
        self.retryPolicy = retryPolicy
        self.retryClock = retryClock
        self.random = random
        self.observer = observer
        self.onCheckpoint = checkpoint
        state = Mutex(State(resume: resumeFrom))
    }

    /// The latest durable resume data (what the next attempt would resume from).
    public var resumeData: ResumeData? { state.withLock { $0.resume } }

    /// Runs attempts until the download succeeds, fails for good, or is cancelled.
    public func run() async -> Result<TransferResult, FerryError> {
        var budget = AttemptBudget()
        while true {
            let attempt = budget.failures + 1
            let resume = state.withLock { $0.resume }
            let delegate = ResumableDownloadDelegate(destination: destination, policy: policy, resumeFrom: resume, clock: session.configuration.clock) { [self] data in
                record(data)
            }
            var attemptRequest = request
            if let resume, resume.canResume, let finalURL = resume.finalURL { attemptRequest = request.moved(to: finalURL) }
            let task = session.task(kind: .download, request: attemptRequest, delegate: delegate)
            let cancelled = state.withLock { state -> Bool in
                if state.cancelled { return true }
                state.task = task
                return false
            }
            if cancelled { return .failure(.cancelled) }
            observer?.attemptStarted(task, attempt: attempt)
            task.resume()
            let outcome = await task.outcome()
            let stopped = state.withLock { state -> Bool in
                state.task = nil
                return state.cancelled
            }
            observer?.attemptEnded(task, outcome: outcome)
            guard case .failure(let error) = outcome, !stopped else { return outcome }
            let madeProgress = (state.withLock { $0.resume?.durableOffset } ?? 0) > resume?.durableOffset ?? 0
            let delay: Double
            switch budget.attemptFailed(error, madeProgress: madeProgress, policy: retryPolicy,
                                        retryAfter: task.response?.headers["Retry-After"], random: random) {
            case .restart: continue
            case .giveUp: return outcome
            case .retry(let after): delay = after
            }
            observer?.willRetry(after: error, delay: delay, attempt: attempt)
            let retryClock = self.retryClock
            let waiting = Task { await retryClock.sleep(seconds: delay) }
            let cancelledBeforeWait = state.withLock { state -> Bool in
                state.waiting = waiting
                return state.cancelled
            }
            if cancelledBeforeWait { waiting.cancel() }
            await waiting.value
            if state.withLock({ state -> Bool in
                state.waiting = nil
                return state.cancelled
            }) { return .failure(.cancelled) }
        }
    }

    /// Stops the download: the running attempt checkpoints and keeps its `.part` (when the
    /// policy says so), a wait for a retry ends, and no further attempt starts.
    public func cancel() {
        let (task, waiting) = state.withLock { state -> (TransferTask?, Task<Void, Never>?) in
            state.cancelled = true
            return (state.task, state.waiting)
        }
        task?.cancel()
        waiting?.cancel()
    }

    private func record(_ data: ResumeData) {
        state.withLock { $0.resume = data }
        onCheckpoint(data)
    }
}
