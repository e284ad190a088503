import FerryKit
import Glibc

/// `AttemptPolicy` decides what each ended attempt of a scheduler's run means for its task:
/// the next state, the message, the wait before a retry and the kind of failure. A pure
/// value owned by the `Scheduler` (no clock, no journal, no I/O), so tests drive it alone.
///
/// The retry rule is FerryKit's `AttemptBudget` (one per task with a failed attempt in this
/// run): restarts after a change on the server, a budget spent only by attempts without
/// progress, Retry-After. On top of it: a deliberate stop says what the task becomes, an
/// upload's unsuccessful reply is a failure, a full disk pauses the task, and a permanent
/// remote failure moves the task to its next mirror before it fails.
struct AttemptPolicy {
    /// `retryPolicy` is the scheduler's; a task's own `retries` replaces its limit.
    let retryPolicy: RetryPolicy
    /// `tasks` are the counts of the tasks with a failed attempt, a restart or a mirror moved
    /// on to in this run; a task is forgotten once it is done or nothing of it is counted.
    private var tasks: [TaskID: TaskAttempts] = [:]

    /// `TaskAttempts` is what the policy keeps about one task.
    private struct TaskAttempts {
        /// `budget` holds the failed attempts and restarts.
        var budget = AttemptBudget()
        /// `mirror` is the index of the URL the task has moved on to; `0` for the first.
        var mirror = 0

        /// `isUntouched` is true when nothing is kept (the entry may go).
        var isUntouched: Bool { mirror == 0 && budget.isUntouched }
    }

    /// `init(retryPolicy:)` makes a policy with nothing counted.
    init(retryPolicy: RetryPolicy) {
        self.retryPolicy = retryPolicy
    }

    /// `mirror(of:)` is the index of the URL task `id` runs from: `0` (its first) unless a
    /// mirror failed in this run.
    func mirror(of id: TaskID) -> Int {
        tasks[id]?.mirror ?? 0
    }

    /// `decide(_:spec:outcome:intent:madeProgress:holdsBytes:response:random:)` turns an ended attempt
    /// of task `id` into its next state, message and retry, and counts it. `intent` is why the
    /// scheduler stopped the transfer (`nil` when it ended on its own); `madeProgress` is true
    /// when the attempt moved the download on; `holdsBytes` when the download has bytes on disk
    /// (a 403 or 410 then is a link that expired); `response` is the reply, for its Retry-After;
    /// `random` is the jitter source of the retry delay.
    mutating func decide(
        _ id: TaskID, spec: TaskSpec, outcome: Result<TransferResult, FerryError>, intent: StopIntent?,
        madeProgress: Bool, holdsBytes: Bool = false, response: HTTPResponse?, random: () -> Double = { Double.random(in: 0...1) }
    ) -> Decision {
        if let intent {
            switch intent {
            case .pause: return Decision(state: .paused)
            case .requeue: return Decision(state: .queued)
            case .cancel, .removed: return Decision(state: .cancelled)
            }
        }
        let error: FerryError
        // An upload the server rejected: its message carries the start of the reply, and once
        // it fails for good its length is what was sent.
        var rejected: TransferResult?
        switch outcome {
        case .success(let result):
            if spec.upload != nil, !result.response.isSuccess {
                error = .validation(.unacceptableStatus(
                    result.response.statusCode, reason: result.response.reasonPhrase,
                    url: URLMasking.mask(result.response.url), body: result.data))
                rejected = result
            } else {
                tasks.removeValue(forKey: id)
                let upload = spec.upload != nil
                return Decision(state: .done, finalPath: result.fileURL?.path,
                                reply: upload ? UploadReply.summary(of: result) : nil,
                                length: upload ? result.bytesSent : result.bytesReceived)
            }
        case .failure(let failure):
            error = failure
        }
        let message = rejected.map { UploadReply.rejection(error, of: $0) } ?? error.description
        let sent = rejected?.bytesSent
        if AttemptPolicy.isDiskFull(error) {
            return Decision(state: .paused, message: "\(message); paused until there is room", failure: .localFile)
        }
        if case .cancelled = error {
            return Decision(state: .queued, message: nil)
        }
        if spec.upload == nil, holdsBytes, case .validation(.unacceptableStatus(let status, let reason, _, _)) = error,
           status == 403 || status == 410, mirror(of: id) + 1 >= spec.urls.count {
            // A signed link that expired under a download with bytes: it waits for a new one,
            // its bytes kept, instead of failing.
            tasks.removeValue(forKey: id)
            return Decision(state: .paused, message: "link expired (server answered \(status) \(reason)); its bytes are kept: "
                                + "give it a new link with 'ferry retarget \(id.rawValue) URL'", failure: .transfer)
        }
        var policy = retryPolicy
        if let retries = spec.options.retries {
            policy.retryLimit = max(0, retries)
        }
        var task = tasks[id] ?? TaskAttempts()
        defer { tasks[id] = task.isUntouched ? nil : task }
        switch task.budget.attemptFailed(error, madeProgress: madeProgress, policy: policy,
                                         retryAfter: response?.headers["Retry-After"], random: random) {
        case .restart:
            return Decision(state: .queued, message: message)
        case .retry(let delay):
            return Decision(state: .queued, message: message, retryDelay: delay)
        case .giveUp:
            task.budget.resetRetries()
            if AttemptPolicy.isRemote(error), task.mirror + 1 < spec.urls.count {
                task.mirror += 1
                return Decision(state: .queued, message: "\(message); trying the next mirror")
            }
            task.mirror = 0
            return Decision(state: .failed, message: message, failure: error.kind, length: sent)
        }
    }

    /// `forgetRetries(of:)` gives task `id` a whole retry budget again (the user resumed it);
    /// it stays on its mirror.
    mutating func forgetRetries(of id: TaskID) {
        guard var task = tasks[id] else { return }
        task.budget.resetRetries()
        tasks[id] = task.isUntouched ? nil : task
    }

    /// `startOver(_:)` gives task `id` a whole retry budget again from its first mirror (the
    /// user asked for a retry).
    mutating func startOver(_ id: TaskID) {
        guard var task = tasks[id] else { return }
        task.budget.resetRetries()
        task.mirror = 0
        tasks[id] = task.isUntouched ? nil : task
    }

    /// `isDiskFull(_:)` is true for a write that failed for lack of room: `ENOSPC`, `EDQUOT`,
    /// or `EFBIG` (the file-size limit).
    static func isDiskFull(_ error: FerryError) -> Bool {
        switch error {
        case .file(.diskFull): return true
        case .file(.io(_, let code, _)): return code == EFBIG || code == ENOSPC || code == EDQUOT
        default: return false
        }
    }

    /// `isRemote(_:)` is true for failures that another mirror might not have: the server's
    /// reply or the network, not the local disk or the user.
    static func isRemote(_ error: FerryError) -> Bool {
        switch error {
        case .transport, .validation, .integrity(.truncated): return true
        default: return false
        }
    }
}
