import FerryQueue
import FerryRPC
import Foundation

extension GetCommand {
    /// `getThroughDaemon(_:)` hands the downloads to the daemon running the queue and follows
    /// them to their end with the same output and exit status as a run of its own; Ctrl-C
    /// pauses them (their partial files kept) and exits 130. Returns `false` when no daemon
    /// runs the queue (another engine holds it).
    func getThroughDaemon(_ request: GetRequest) async throws -> Bool {
        let environment = ProcessInfo.processInfo.environment
        guard let directory = try? StateDirectory.prepare(argument: stateDir, environment: environment),
              let daemon = DaemonClient(directory) else { return false }
        let journal = try QueueAccess.open(directory, policy: .fail)
        defer { try? journal.close() }
        let bandwidth = request.options.limits.bandwidth
        if bandwidth.isGiven {
            do {
                _ = try await daemon.call("aria2.changeGlobalOption", [.object(bandwidth.rpcOptions)])
            } catch is DaemonClient.Absent {
                return false
            }
        }
        let interruption = Interruption()
        let trap = SignalTrap.install { interruption.record($0) }
        defer { trap.cancel() }
        let plan: GetPlan
        do {
            plan = try await GetPlan.make(request, store: DaemonDownloads(journal: journal, daemon: daemon, retries: request.options.retries))
        } catch is DaemonClient.Absent {
            return false
        } catch {
            throw GetPlan.fail(error)
        }
        if request.options.verbose {
            Console.error("note: the daemon running this queue makes the requests: -v cannot show their heads (ferry stop, then run again)")
        }
        let style = Reporter.Style(json: request.options.json)
        guard plan.announce(style: style) else { return true }
        let reporter = Reporter(style: style, jobCount: plan.jobs.count, verb: "downloading")
        let outcome = await DaemonFollower(daemon: daemon, reporter: reporter, jobs: plan.jobs).run(interruption: interruption)
        reporter.clearLine()
        if case .lost(let why) = outcome {
            Console.error("the daemon stopped answering (\(why)); the downloads stay in its queue")
            throw ExitStatus.transferFailed
        }
        // Interrupted, even after the last task ended, as a run of its own would say.
        if let status = interruption.exitStatus {
            Console.error(await InterruptedGet.message(journal: journal, ids: Array(plan.jobs.keys), settling: .seconds(3)))
            throw ExitStatus(code: status)
        }
        if case .ended(let summary) = outcome {
            throw ExitStatus(code: summary.exitStatus)
        }
        return true
    }
}
