import ArgumentParser
import FerryKit
import FerryQueue
import FerryRPC
import Foundation

/// `ResumeCommand` is `ferry resume`: run the saved queue headless until nothing is left to
/// run, or queue paused and failed tasks again.
struct ResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Run the saved queue headless until nothing runnable is left.",
        discussion: """
        With task ids (or --all), paused and failed tasks are queued again first; when another \
        ferry already runs this queue, that one picks them up and this command only queues them. \
        Without ids, a second `ferry resume` on the same state directory exits 2 ("another ferry \
        (pid N) is running this queue"). Ctrl-C stops the transfers, keeps them queued for next \
        time and exits 130. Exit status as for `ferry get`: 0 when nothing failed, 1 when a \
        transfer failed, 3 for a checksum mismatch, 4 for a local file error (a task paused on \
        a full disk).
        """
    )

    @OptionGroup var selection: TaskSelection

    @OptionGroup var limits: EngineLimits

    @OptionGroup var hooks: HookOptions

    @OptionGroup(title: "TLS rules per host") var trustRules: TrustRuleOptions

    @Option(name: [.short, .customLong("dir")], help: "Where downloads without a directory of their own are saved.")
    var dir: String?

    @Flag(help: "Print events as JSON lines on stdout.")
    var json = false

    @Flag(name: [.short, .long], help: "Print errors only: no progress, no \"saved\" lines.")
    var quiet = false

    @OptionGroup var state: StateOptions

    func run() async throws {
        Console.quiet = quiet
        let trustManager = try trustRules.checkedManager(environment: ProcessInfo.processInfo.environment)
        let ids = try selection.parsed(requireSome: false)
        let stateDirectory = try QueueAccess.directory(state)
        let host: EngineHost
        do {
            host = try EngineHost.acquire(stateDirectory, policy: .moveAside)
        } catch {
            guard case .lock(.heldByAnotherProcess) = error, selection.all || !ids.isEmpty else {
                throw QueueAccess.fail(error)
            }
            // Another engine runs the queue: queue the tasks through it. An engine of the whole
            // queue starts them at once; a ferry get runs only its own downloads.
            try await StateChange.apply(state, ids: ids, all: selection.all, method: "ferry.resume", verb: "queued")
            let runsQueue = await DaemonClient(stateDirectory)?.runsWholeQueue() ?? true
            Console.error("\(error.description); " + (runsQueue ? "it starts them"
                : "it is a ferry get, which runs only its own downloads: they start when ferry resume or ferry daemon runs the queue"))
            return
        }
        defer { host.close() }
        let journal = host.journal
        if selection.all || !ids.isEmpty {
            try requeue(journal, ids: ids)
        }
        let directory = try DownloadDirectory.prepareForCommand(dir)
        var configuration = SchedulerConfiguration(defaultDirectory: directory.path, maximumConcurrent: limits.maxConcurrent,
                                                   maximumPerHost: limits.maxPerHost)
        // The environment's authorities, as curl reads them (per-task TLS settings are not stored yet).
        configuration.securityPolicy = SecurityPolicy.default.withEnvironment(ProcessInfo.processInfo.environment)
        configuration.trustManager = trustManager
        limits.bandwidth.apply(to: &configuration)
        if let note = limits.bandwidth.keptLimitNote(journal: journal) { Console.error(note) }
        let scheduler = await host.start(configuration, hooks: hooks, environment: ProcessInfo.processInfo.environment)
        let printer = EventPrinter(json: json, journal: journal)
        printer.follow(scheduler)
        // The first SIGINT or SIGTERM stops the transfers (checkpointed, kept queued); the run
        // then ends below with 130 (or 128 + N), in order, whichever thread gets there first.
        let interruption = Interruption()
        let stop: @Sendable (Int32) -> Void = { signal in
            guard interruption.record(signal) else { return }
            Task { await scheduler.stop() }
        }
        let trap = SignalTrap.install(stop)
        // Every running engine answers on control.sock: ferry list, pause, limit, the terminal
        // UI or an aria2 client reach it as a daemon; `ferry stop` (aria2.shutdown) stops it
        // as SIGTERM does.
        host.serve(RPCEngine(journal: journal, runner: scheduler, defaultDirectory: directory.path,
                             maximumConcurrent: limits.maxConcurrent, command: "resume", onShutdown: { stop(SIGTERM) }))
        let running = await scheduler.startRunning(untilIdle: true)
        // A signal that came before the run began found nothing to stop.
        if interruption.signal != nil { await scheduler.stop() }
        await running.value
        await host.closeDoor()
        trap.cancel()
        // Every line already made is written, and the printer (which may read a finished
        // task's path from the journal) is done before the journal closes.
        scheduler.finishEvents()
        printer.finish()
        if let status = interruption.exitStatus {
            Console.error("interrupted; unfinished transfers stay queued (ferry resume continues them)")
            throw ExitStatus(code: status)
        }
        let summary = await scheduler.summary
        let counts = (try? journal.countsByState()) ?? [:]
        printer.summary(summary, counts: counts)
        if let error = await scheduler.lastJournalError {
            // A journal that cannot be written ends the run early (the scheduler stops its
            // transfers): say what happened and what is kept.
            let kept = error.isWriteFailure ? "; stopped, unfinished transfers stay queued (ferry resume continues them)" : ""
            Console.error("\(error.description)\(kept)")
            throw ExitStatus.localFile
        }
        throw ExitStatus(code: summary.exitStatus)
    }

    /// `requeue(_:ids:)` queues the named paused or failed tasks (or all of them) before this
    /// engine starts, reported as `ferry.resume` reports them.
    private func requeue(_ journal: Journal, ids: [TaskID]) throws {
        let report: StateChangeReport
        do {
            let moved = try journal.moveStates(selection.all ? nil : ids, from: [.paused, .failed], to: .queued)
            report = try StateChangeReport.make(journal, named: selection.all ? nil : ids, changed: Set(moved.keys))
        } catch {
            throw QueueAccess.fail(error)
        }
        try StateChange.print(report, ids: ids, all: selection.all, verb: "queued")
    }
}
