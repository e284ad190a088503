import FerryQueue
import FerryRPC
import Foundation

/// `Handoff` is how handing a run's downloads to the engine running the queue went.
enum Handoff {
    /// The engine ran them; the run's output and status were given.
    case handled
    /// No engine that can take them answers (the lock is held by something else).
    case refused
    /// The engine of another `ferry get` was ending: the downloads are queued, for this run
    /// to run itself once the queue is free.
    case ending
}

extension GetCommand {
    /// `getThroughDaemon(_:)` hands the downloads to the engine running the queue (a daemon,
    /// a `ferry resume`, or another `ferry get`, whose engine adopts them) and follows them to
    /// their end with the same output and exit status as a run of its own; Ctrl-C pauses them
    /// (their partial files kept) and exits 130.
    func getThroughDaemon(_ request: GetRequest) async throws -> Handoff {
        let environment = ProcessInfo.processInfo.environment
        guard let directory = try? StateDirectory.prepare(argument: stateDir, environment: environment),
              let daemon = DaemonClient(directory), let engine = try await daemon.engine() else { return .refused }
        let journal = try QueueAccess.open(directory, policy: .fail)
        defer { try? journal.close() }
        let bandwidth = request.options.limits.bandwidth
        let budget: DaemonRunBudget
        do {
            budget = try await DaemonRunBudget.apply(bandwidth, on: daemon)
        } catch is DaemonClient.Absent {
            return .refused
        }
        do {
            let handoff = try await follow(request, daemon: daemon, engine: engine, journal: journal, bandwidth: bandwidth)
            await budget.restore()
            return handoff
        } catch {
            await budget.restore()
            throw error
        }
    }

    /// `follow(_:daemon:engine:journal:bandwidth:)` is `getThroughDaemon(_:)` once this run's
    /// budget is in force: the downloads handed to the engine and followed to their end.
    private func follow(_ request: GetRequest, daemon: DaemonClient, engine: DaemonClient.Engine, journal: Journal,
                        bandwidth: BandwidthOptions) async throws -> Handoff {
        let interruption = Interruption()
        let trap = SignalTrap.install { interruption.record($0) }
        defer { trap.cancel() }
        // Attached before the downloads are added: every event of theirs is seen.
        guard let mark = try? await DownloadFollower.attach(daemon) else { return .refused }
        let plan: GetPlan
        do {
            plan = try await GetPlan.make(request, store: QueuedDownloads(journal: journal, door: daemon, retries: request.options.retries))
        } catch is DaemonClient.Absent {
            return .refused
        } catch {
            throw GetPlan.fail(error)
        }
        if !engine.runsWholeQueue, !plan.jobs.isEmpty {
            // Another get's engine runs only the downloads it was given: it adopts these.
            let ids = TaskSet.ids(plan.jobs.keys.sorted { $0.rawValue < $1.rawValue })
            guard case .success(.bool(true)) = try await daemon.attempt("ferry.adopt", [ids.json]) else { return .ending }
            Console.error("note: \(engine.name) runs this queue: its engine runs these downloads too (Ctrl-C here pauses them)")
        }
        if request.options.verbose {
            Console.error("note: \(engine.name) running this queue makes the requests: -v cannot show their heads (ferry stop, then run again)")
        }
        let style = Reporter.Style(json: request.options.json)
        if !plan.jobs.isEmpty, let note = bandwidth.keptLimitNote(journal: journal) { Console.error(note) }
        if !plan.jobs.isEmpty, let connections = request.options.connections, let note = await Self.connectionCapNote(daemon, connections) {
            Console.error(note)
        }
        guard plan.announce(style: style) else {
            if let status = request.finalStatus(0) { throw status }
            return .handled
        }
        let reporter = Reporter(style: style, jobCount: plan.jobs.count, verb: "downloading")
        let outcome = await DownloadFollower(door: daemon, from: mark, journal: journal, host: engine.name, reporter: reporter,
                                             jobs: plan.jobs).run(interruption: interruption)
        reporter.clearLine()
        if case .lost(let why) = outcome {
            Console.error("\(engine.name) stopped answering (\(why)); the downloads stay in its queue")
            throw ExitStatus.transferFailed
        }
        // Interrupted, even after the last task ended, as a run of its own would say.
        if let status = interruption.exitStatus {
            Console.error(await InterruptedGet.message(journal: journal, ids: Array(plan.jobs.keys), settling: .seconds(3)))
            throw ExitStatus(code: status)
        }
        if case .ended(let summary) = outcome, let status = request.finalStatus(summary.exitStatus) {
            throw status
        }
        return .handled
    }

    /// `connectionCapNote(_:_:)` says what caps `-x N` when the daemon runs fewer connections
    /// to one server (or in all) than asked, and how to raise its limits; `nil` when none does.
    static func connectionCapNote(_ daemon: DaemonClient, _ connections: Int) async -> String? {
        guard connections > 1, let answer = try? await daemon.call("aria2.getGlobalOption") else { return nil }
        func read(_ key: String) -> Int? { answer.objectValue?[key]?.stringValue.flatMap { Int($0) } }
        let perHost = read("max-per-host") ?? connections
        let concurrent = read("max-concurrent-downloads") ?? connections
        let cap = min(perHost, concurrent)
        guard cap < connections else { return nil }
        return "note: the daemon running this queue runs at most \(perHost) connections to one server and \(concurrent) in all: "
            + "-x \(connections) gets \(cap) ('ferry stop', then run again, or start it with 'ferry daemon --max-per-host \(connections)')"
    }
}
