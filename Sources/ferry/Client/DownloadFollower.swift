import FerryKit
import FerryQueue
import FerryRPC

/// `DownloadFollower` follows the downloads of one `ferry get` until each has ended, and shows
/// them with the `Reporter` (start, progress, retries, notes about sources, saved file,
/// failure). It reads only what the engine running them answers (`ferry.activity`), through
/// an `EngineDoor`: the same follower, the same lines and the same exit status whether the
/// run hosts its engine or hands its downloads to a daemon or another `ferry get`.
///
/// It asks `ferry.activity` for the events since its last answer, waiting up to `interval` for
/// one: an event is shown as soon as it happens, and progress (the live transfers the answer
/// lists) is redrawn at least every `interval`, with no busy loop. A follower that fell behind
/// the feed (`reset`) reads its tasks' statuses instead (`aria2.tellStatus`), as it does once
/// the engine is gone (then from the journal).
final class DownloadFollower {
    /// `interval` is the longest wait for an event between two answers, in milliseconds.
    static let interval: Int64 = 100
    /// `quietTimeBeforeNote` passes with none of the run's tasks started or ended before the
    /// run says that it waits for the engine of another command.
    static let quietTimeBeforeNote: Duration = .seconds(2)

    /// `Outcome` is how following ended.
    enum Outcome {
        /// Every task ended; `summary` ranks the failures for the exit status.
        case ended(SchedulerSummary)
        /// The run was interrupted: the tasks left were paused.
        case interrupted
        /// The engine stopped answering.
        case lost(String)
    }

    private let door: any EngineDoor
    /// `journal` is read for the tasks' last states when the engine stops answering: an
    /// engine that ends right after the run's last task (another `ferry get` whose own
    /// downloads had ended) has recorded how it ended.
    private let journal: Journal
    /// `host` names the engine of another command in messages ("the daemon", "ferry get (pid
    /// N)"); `nil` for the run's own engine, which never makes it wait for others.
    private let host: String?
    private let reporter: Reporter
    private let jobs: [TaskID: Reporter.Job]
    /// The tasks not yet ended, and whether each is seen running.
    private var pending: [TaskID: Bool]
    private var summary = SchedulerSummary()
    private var next: Int64
    /// Until when the run may say nothing while none of its tasks starts or ends; `nil` once
    /// one did, or once it said it waits.
    private var quietUntil: ContinuousClock.Instant?

    /// `Mark` is the feed's number when the follower attached: the events of tasks added after
    /// it are all seen.
    struct Mark {
        fileprivate let next: Int64
    }

    /// `attach(_:)` is the feed's number now; ask it before the run's tasks are added or
    /// queued again. Throws as `door` does when no engine answers.
    static func attach(_ door: some EngineDoor) async throws -> Mark {
        guard case .success(let answer) = try await door.request("ferry.activity", []),
              let number = answer.objectValue?["next"]?.integerValue else { return Mark(next: 0) }
        return Mark(next: number)
    }

    init(door: any EngineDoor, from mark: Mark, journal: Journal, host: String?, reporter: Reporter, jobs: [TaskID: Reporter.Job]) {
        self.door = door
        self.journal = journal
        self.host = host
        self.reporter = reporter
        self.jobs = jobs
        next = mark.next
        pending = jobs.mapValues { _ in false }
        quietUntil = host == nil ? nil : .now + Self.quietTimeBeforeNote
    }

    /// `run(interruption:engineEnded:)` follows the tasks until each has ended, the run is
    /// interrupted (its tasks are then paused through the engine, their partial files kept)
    /// or the engine is gone: it stops answering, or `engineEnded` (for an engine this
    /// process hosts) says it stopped running (the journal then tells how the tasks left
    /// ended).
    func run(interruption: Interruption, engineEnded: @Sendable () -> Bool = { false }) async -> Outcome {
        while !pending.isEmpty {
            if interruption.signal != nil {
                return await pauseLeft()
            }
            let answer: JSONValue
            do {
                switch try await door.request("ferry.activity", [.integer(next), .integer(Self.interval)]) {
                case .success(let value): answer = value
                case .failure(let error): return .lost(error.message)
                }
            } catch {
                if settleFromJournal() { break }
                return .lost("\(error)")
            }
            guard let page = answer.objectValue, let number = page["next"]?.integerValue else {
                return .lost("its answer to ferry.activity is not understood")
            }
            next = number
            if page["reset"] == .bool(true), await !catchUp() {
                if settleFromJournal() { break }
                return .lost("its statuses could not be read")
            }
            for item in page["events"]?.arrayValue ?? [] {
                await take(item)
            }
            for item in page["progress"]?.arrayValue ?? [] {
                showProgress(item)
            }
            noteWaiting()
            if !pending.isEmpty, page["events"]?.arrayValue?.isEmpty != false, engineEnded() {
                if settleFromJournal() { break }
                return .lost("its engine stopped")
            }
        }
        return .ended(summary)
    }

    /// `take(_:)` shows one event of the feed, if it is about one of the run's tasks.
    private func take(_ item: JSONValue) async {
        guard let event = item.objectValue, let kind = event["kind"]?.stringValue,
              let id = event["gid"]?.stringValue.flatMap(GID.taskID), pending[id] != nil else { return }
        switch kind {
        case "started":
            start(id)
        case "retry":
            let delay: Double = switch event["delay"] {
            case .number(let seconds)?: seconds
            case .integer(let seconds)?: Double(seconds)
            default: 0
            }
            reporter.show(.willRetry(id, delay: delay), jobs: jobs)
        case "bytes":
            start(id)
            let progress = TransferProgress(receivedBytes: event["received"]?.integerValue ?? 0,
                                            expectedReceivedBytes: event["expected"]?.integerValue)
            reporter.show(.progress(id, progress), jobs: jobs)
        case "note":
            if let text = event["text"]?.stringValue { reporter.show(.note(id, text), jobs: jobs) }
        case "ended":
            let state = event["state"]?.stringValue.flatMap(TaskState.init(rawValue:)) ?? .cancelled
            let error = event["error"]?.stringValue
            if let received = event["received"]?.integerValue, pending[id] == true {
                // The bytes it counted last: progress since the last look is not lost.
                reporter.show(.progress(id, TransferProgress(receivedBytes: received)), jobs: jobs)
            }
            switch state {
            case .queued, .running:
                // The attempt ended and the task waits for the next (a retry, another mirror).
                pending[id] = false
                reporter.show(.ended(id, .queued, error: error), jobs: jobs)
            case .done:
                end(id, .done, path: event["path"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 })
            case .failed:
                summary.note(await failureKind(of: id))
                end(id, .failed, error: error ?? "failed")
            case .paused:
                // Paused with an error (a full disk), it failed for this run; paused by someone
                // else, it is left as it is.
                if error != nil { summary.note(await failureKind(of: id)) }
                end(id, .paused, error: error)
            case .cancelled:
                end(id, .cancelled)
            }
        default:
            break
        }
    }

    /// `showProgress(_:)` shows the progress of a live transfer of the run (one whose start
    /// it did not see, started before it attached, is shown started first).
    private func showProgress(_ item: JSONValue) {
        guard let entry = item.objectValue, let id = entry["gid"]?.stringValue.flatMap(GID.taskID), pending[id] != nil else { return }
        start(id)
        reporter.show(.progress(id, DaemonActivity.progress(entry)), jobs: jobs)
    }

    /// `failureKind(of:)` is the kind of the failure a task ended with, from its `errorCode`
    /// (a transfer failure when it cannot be read).
    private func failureKind(of id: TaskID) async -> FailureKind {
        let params: [JSONValue] = [.string(GID.string(for: id)), ["errorCode"]]
        guard case .success(let status)? = try? await door.request("aria2.tellStatus", params),
              let code = status.objectValue?["errorCode"]?.stringValue else { return .transfer }
        return Aria2ErrorCode.kind(of: code)
    }

    /// `statusKeys` are the status fields `catchUp()` asks for.
    private static let statusKeys: JSONValue = ["status", "completedLength", "totalLength", "downloadSpeed", "uploadSpeed",
                                                "files", "errorCode", "errorMessage"]

    /// `catchUp()` reads the status of every task left (one `system.multicall` of
    /// `aria2.tellStatus`) after the follower fell behind the feed, and shows what it says;
    /// false when the engine does not answer.
    private func catchUp() async -> Bool {
        let ids = pending.keys.sorted { $0.rawValue < $1.rawValue }
        let calls: [JSONValue] = ids.map { id in
            ["methodName": "aria2.tellStatus", "params": [.string(GID.string(for: id)), Self.statusKeys]]
        }
        guard case .success(let result)? = try? await door.request(RPCDispatcher.multicallName, [.array(calls)]) else { return false }
        for (id, answer) in zip(ids, result.arrayValue ?? []) {
            settle(answer.arrayValue?.first?.objectValue, of: id)
        }
        return true
    }

    /// `settle(_:of:)` shows what a task's status says; `nil` (no such task any more) ends it
    /// as removed.
    private func settle(_ status: [String: JSONValue]?, of id: TaskID) {
        guard let status, let name = status["status"]?.stringValue else {
            end(id, .cancelled)
            return
        }
        switch name {
        case "active":
            start(id)
            let total = status["totalLength"]?.integerValue ?? 0
            let speed = (status["downloadSpeed"]?.integerValue ?? 0) + (status["uploadSpeed"]?.integerValue ?? 0)
            let progress = TransferProgress(receivedBytes: status["completedLength"]?.integerValue ?? 0,
                                            expectedReceivedBytes: total > 0 ? total : nil, bytesPerSecond: Double(speed))
            reporter.show(.progress(id, progress), jobs: jobs)
        case "waiting":
            if pending[id] == true {
                pending[id] = false
                reporter.show(.ended(id, .queued, error: nil), jobs: jobs)
            }
        case "complete":
            let path = status["files"]?.arrayValue?.first?.objectValue?["path"]?.stringValue
            end(id, .done, path: path.flatMap { $0.isEmpty ? nil : $0 })
        case "error":
            summary.note(Aria2ErrorCode.kind(of: status["errorCode"]?.stringValue ?? Aria2ErrorCode.unknown))
            end(id, .failed, error: status["errorMessage"]?.stringValue ?? "failed")
        case "paused":
            let code = status["errorCode"]?.stringValue
            if let code { summary.note(Aria2ErrorCode.kind(of: code)) }
            end(id, .paused, error: code == nil ? nil : status["errorMessage"]?.stringValue ?? "paused")
        default:
            end(id, .cancelled)
        }
    }

    /// `settleFromJournal()` ends the tasks left as the journal recorded them (done or
    /// failed) once the engine no longer answers, and returns whether none is left; a task the
    /// journal does not show ended leaves the run lost.
    private func settleFromJournal() -> Bool {
        for id in pending.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard let record = try? journal.task(id) else { return false }
            switch record.state {
            case .done:
                end(id, .done, path: record.finalPath)
            case .failed:
                summary.note(Aria2ErrorCode.kind(of: Aria2ErrorCode.unknown))
                end(id, .failed, error: record.lastError ?? "failed")
            default:
                return false
            }
        }
        return pending.isEmpty
    }

    /// `noteWaiting()` says once, after `quietTimeBeforeNote` with none of the run's tasks
    /// started or ended, that the engine of another command runs other transfers first (its
    /// limits are taken): a run that says nothing for long looks stuck.
    private func noteWaiting() {
        guard let quietUntil, let host else { return }
        if pending.count < jobs.count || pending.values.contains(true) {
            self.quietUntil = nil
        } else if ContinuousClock.now >= quietUntil {
            self.quietUntil = nil
            reporter.clearLine()
            Console.error("waiting: \(host) running this queue is at its limits with other transfers (ferry list shows them)")
        }
    }

    private func start(_ id: TaskID) {
        guard pending[id] == false else { return }
        pending[id] = true
        reporter.show(.started(id), jobs: jobs)
    }

    private func end(_ id: TaskID, _ state: TaskState, error: String? = nil, path: String? = nil) {
        guard pending[id] != nil else { return }
        // A task that ended between two answers was never seen running: it ran all the same.
        if state == .done || error != nil { start(id) }
        pending.removeValue(forKey: id)
        reporter.show(.ended(id, state, error: error, path: path), jobs: jobs)
    }

    /// `pauseLeft()` pauses the tasks not yet ended (their transfers checkpoint and keep
    /// their `.part`), so no engine takes them before the same command runs again. An error
    /// answered leaves the run interrupted all the same (a task the engine paused already,
    /// on the same signal, cannot be paused again).
    private func pauseLeft() async -> Outcome {
        let left = TaskSet.ids(pending.keys.sorted { $0.rawValue < $1.rawValue })
        do {
            _ = try await door.request("ferry.pause", [left.json])
        } catch {
            return .lost("\(error)")
        }
        return .interrupted
    }
}
