import FerryKit
import FerryQueue
import FerryRPC

/// `DaemonFollower` follows the downloads `ferry get` handed to a daemon until each has
/// ended, and shows them with the `Reporter` as a run of its own would (start, progress,
/// saved file, failure), so the output and the exit status are the same.
///
/// It polls the daemon: every `interval`, one `system.multicall` of `aria2.tellStatus` for the
/// tasks not yet ended. aria2's protocol sends no progress notification, so a follower must
/// ask for bytes and speeds anyway; its WebSocket notifications would only spare asking for
/// the ends. One request per round at a fixed interval bounds the cost (about four small
/// requests a second on `control.sock`, whatever the tasks do), with no busy loop. What a poll
/// cannot see: an attempt that failed and is retried shows no line of its own (the task goes
/// back to waiting; its final failure is reported).
final class DaemonFollower {
    /// `interval` is the time between two polls.
    static let interval: Duration = .milliseconds(250)
    /// `quietPollsBeforeNote` is how many polls (2 s) pass with none of the run's tasks
    /// started or ended before the run says that it waits for the daemon.
    static let quietPollsBeforeNote = 8

    /// `Outcome` is how following ended.
    enum Outcome {
        /// Every task ended; `summary` ranks the failures for the exit status.
        case ended(SchedulerSummary)
        /// The run was interrupted: the tasks left were paused.
        case interrupted
        /// The daemon stopped answering.
        case lost(String)
    }

    /// `Tracked` is what was shown of a task so far.
    private struct Tracked {
        var active = false
    }

    private let daemon: DaemonClient
    /// `journal` is read for the tasks' last states when the engine stops answering: an
    /// engine that ends right after the run's last task (another `ferry get` whose own
    /// downloads had ended) has recorded how it ended.
    private let journal: Journal
    /// `host` names the engine in messages: "the daemon", or "ferry get (pid N)".
    private let host: String
    private let reporter: Reporter
    private let jobs: [TaskID: Reporter.Job]
    private var pending: [TaskID: Tracked]
    private var summary = SchedulerSummary()
    /// The polls so far with nothing started or ended; `nil` once something did, or once the
    /// run said it waits.
    private var quietPolls: Int? = 0

    /// `keys` are the status fields a poll asks for.
    private static let keys: JSONValue = ["status", "completedLength", "totalLength", "downloadSpeed", "uploadSpeed",
                                          "files", "errorCode", "errorMessage"]

    init(daemon: DaemonClient, journal: Journal, host: String, reporter: Reporter, jobs: [TaskID: Reporter.Job]) {
        self.daemon = daemon
        self.journal = journal
        self.host = host
        self.reporter = reporter
        self.jobs = jobs
        pending = jobs.mapValues { _ in Tracked() }
    }

    /// `run(interruption:)` follows the tasks until each has ended, the run is interrupted
    /// (its tasks are then paused through the daemon, their partial files kept) or the daemon
    /// is gone.
    func run(interruption: Interruption) async -> Outcome {
        while !pending.isEmpty {
            if interruption.signal != nil {
                return await pauseLeft()
            }
            let ids = pending.keys.sorted { $0.rawValue < $1.rawValue }
            let calls: [JSONValue] = ids.map { id in
                ["methodName": "aria2.tellStatus", "params": [.string(GID.string(for: id)), DaemonFollower.keys]]
            }
            let answers: [JSONValue]
            do {
                let result = try await ControlClient.call(socketPath: daemon.socketPath, method: RPCDispatcher.multicallName,
                                                          params: [.array(calls)])
                answers = result.arrayValue ?? []
            } catch {
                if settleFromJournal() { break }
                return .lost("\(error)")
            }
            for (id, answer) in zip(ids, answers) {
                take(answer.arrayValue?.first?.objectValue, of: id)
            }
            guard !pending.isEmpty else { break }
            noteWaiting()
            try? await Task.sleep(for: DaemonFollower.interval)
        }
        return .ended(summary)
    }

    /// `take(_:of:)` shows what a task's status says since the last poll; `nil` (no such
    /// task any more) ends it as removed.
    private func take(_ status: [String: JSONValue]?, of id: TaskID) {
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
            // An attempt ended and the task waits for the next (a retry): a start follows.
            if pending[id]?.active == true {
                pending[id]?.active = false
                reporter.show(.ended(id, .queued, error: nil), jobs: jobs)
            }
        case "complete":
            let path = status["files"]?.arrayValue?.first?.objectValue?["path"]?.stringValue
            end(id, .done, path: path.flatMap { $0.isEmpty ? nil : $0 })
        case "error":
            summary.note(Aria2ErrorCode.kind(of: status["errorCode"]?.stringValue ?? Aria2ErrorCode.unknown))
            end(id, .failed, error: status["errorMessage"]?.stringValue ?? "failed")
        case "paused":
            // Paused with an error (a full disk), it failed for this run; paused by someone
            // else, it is left as it is.
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

    /// `noteWaiting()` says once, after `quietPollsBeforeNote` polls with none of the run's
    /// tasks started or ended, that the daemon runs other transfers first (its limits are
    /// taken): a run that says nothing for long looks stuck.
    private func noteWaiting() {
        guard let quiet = quietPolls else { return }
        if pending.count < jobs.count || pending.values.contains(where: \.active) {
            quietPolls = nil
        } else if quiet + 1 < DaemonFollower.quietPollsBeforeNote {
            quietPolls = quiet + 1
        } else {
            quietPolls = nil
            reporter.clearLine()
            Console.error("waiting: \(host) running this queue is at its limits with other transfers (ferry list shows them)")
        }
    }

    private func start(_ id: TaskID) {
        guard pending[id]?.active == false else { return }
        pending[id]?.active = true
        reporter.show(.started(id), jobs: jobs)
    }

    private func end(_ id: TaskID, _ state: TaskState, error: String? = nil, path: String? = nil) {
        guard pending[id] != nil else { return }
        // A task that ended between two polls was never seen running: it ran all the same.
        if state == .done || error != nil { start(id) }
        pending.removeValue(forKey: id)
        reporter.show(.ended(id, state, error: error, path: path), jobs: jobs)
    }

    /// `pauseLeft()` pauses the tasks not yet ended (their transfers checkpoint and keep
    /// their `.part`), so no engine takes them before the same command runs again.
    private func pauseLeft() async -> Outcome {
        let left = TaskSet.ids(pending.keys.sorted { $0.rawValue < $1.rawValue })
        do {
            _ = try await ControlClient.call(socketPath: daemon.socketPath, method: "ferry.pause", params: [left.json])
        } catch {
            return .lost("\(error)")
        }
        return .interrupted
    }
}
