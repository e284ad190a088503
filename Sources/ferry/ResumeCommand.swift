import ArgumentParser
import FerryKit
import FerryQueue
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

    @Option(name: .customLong("max-concurrent"), help: "Transfers running at once.")
    var maxConcurrent: Int = SchedulerConfiguration.defaultMaximumConcurrent

    @Option(name: .customLong("max-per-host"), help: "Transfers running at once to one host.")
    var maxPerHost: Int = SchedulerConfiguration.defaultMaximumPerHost

    @Option(name: [.short, .customLong("dir")], help: "Where downloads without a directory of their own are saved.")
    var dir: String?

    @Flag(help: "Print events as JSON lines on stdout.")
    var json = false

    @OptionGroup var state: StateOptions

    func run() async throws {
        let ids = try selection.parsed(requireSome: false)
        guard maxConcurrent >= 1, maxPerHost >= 1 else {
            Console.error("--max-concurrent and --max-per-host must be 1 or more")
            throw ExitStatus.usage
        }
        let stateDirectory = try QueueAccess.directory(state)
        let lock: EngineLock
        do {
            lock = try EngineLock.acquire(at: stateDirectory.lockPath)
        } catch {
            guard case .lock(.heldByAnotherProcess) = error, selection.all || !ids.isEmpty else {
                throw QueueAccess.fail(error)
            }
            // Another engine runs the queue: queue the tasks and let it start them.
            let journal = try QueueAccess.open(stateDirectory, policy: .fail)
            defer { try? journal.close() }
            try requeue(journal, ids: ids)
            Console.error("\(error.description); it starts them within a second")
            return
        }
        defer { lock.release() }
        let journal = try QueueAccess.open(stateDirectory, policy: .moveAside)
        defer { try? journal.close() }
        if selection.all || !ids.isEmpty {
            try requeue(journal, ids: ids)
        }
        let directory = try DownloadDirectory.prepareForCommand(dir)
        let configuration = SchedulerConfiguration(defaultDirectory: directory.path, maximumConcurrent: maxConcurrent,
                                                   maximumPerHost: maxPerHost)
        let scheduler = Scheduler(journal: journal, configuration: configuration)
        let printer = EventPrinter(json: json)
        let events = scheduler.events(where: EventPrinter.prints(json: json))
        let following = Task { await printer.follow(events, journal: journal) }
        let trap = SignalTrap.install { _ in
            Task {
                await scheduler.stop()
                Console.error("interrupted; unfinished transfers stay queued (ferry resume continues them)")
                Foundation.exit(130)
            }
        }
        await scheduler.run(untilIdle: true)
        trap.cancel()
        // Every event already published reaches the printer, and the printer (which may read a
        // finished task's path from the journal) is done before the journal closes.
        scheduler.finishEvents()
        await following.value
        let summary = await scheduler.summary
        let counts = (try? journal.countsByState()) ?? [:]
        printer.summary(summary, counts: counts)
        if let error = await scheduler.lastJournalError {
            Console.error("journal: \(error.description)")
            throw ExitStatus.localFile
        }
        throw ExitStatus(code: summary.exitStatus)
    }

    private func requeue(_ journal: Journal, ids: [TaskID]) throws {
        try StateChange.apply(journal, ids: ids, all: selection.all, to: .queued, from: [.paused, .failed], verb: "queued")
    }
}

/// `EventPrinter` prints a headless run's scheduler events: a line per start and end on
/// stderr, or JSON lines on stdout with `--json`.
struct EventPrinter: Sendable {
    let json: Bool

    /// `prints(json:)` accepts the events `follow` prints: starts and ends, and with `json`
    /// progress snapshots too.
    static func prints(json: Bool) -> @Sendable (SchedulerEvent) -> Bool {
        { event in
            switch event {
            case .started, .ended: return true
            case .progress: return json
            case .transferred, .journalChanged: return false
            }
        }
    }

    /// `follow(_:journal:)` prints events until the stream ends or the task is cancelled.
    func follow(_ events: AsyncStream<SchedulerEvent>, journal: Journal) async {
        for await event in events {
            switch event {
            case .started(let id):
                if json { emit("started", id) } else { Console.error("#\(id) started") }
            case .progress(let id, let progress):
                guard json else { continue }
                var line = Self.line("progress", id)
                line.add("received", progress.receivedBytes)
                line.add("expected", progress.expectedReceivedBytes)
                line.add("sent", progress.sentBytes)
                line.add("bytes_per_second", progress.bytesPerSecond)
                Console.output(line.line)
            case .ended(let id, let state, let error, let path):
                if json {
                    var line = Self.line("ended", id)
                    line.add("state", state.rawValue)
                    line.add("error", error)
                    Console.output(line.line)
                } else {
                    var text = "#\(id) \(state)"
                    if state == .done, let path = path ?? ((try? journal.finalPath(of: id)) ?? nil) {
                        text += " \(path.displayable)"
                    }
                    if let error { text += ": \(error.displayable)" }
                    Console.error(text)
                }
            case .journalChanged, .transferred:
                continue
            }
        }
    }

    private func emit(_ event: String, _ id: TaskID) {
        Console.output(Self.line(event, id).line)
    }

    /// `line(_:_:)` is a JSON line about a task, starting with its event and id.
    private static func line(_ event: String, _ id: TaskID) -> JSONLine {
        var line = JSONLine()
        line.add("event", event)
        line.add("id", id.rawValue)
        return line
    }

    /// `summary(_:counts:)` prints what the run did and what is left in the queue.
    func summary(_ summary: SchedulerSummary, counts: [TaskState: Int]) {
        if json {
            var line = JSONLine()
            line.add("event", "summary")
            line.add("completed", summary.completed)
            line.add("failed", summary.failed)
            line.add("paused_by_error", summary.pausedByError)
            line.add("retried", summary.retried)
            for state in TaskState.allCases { line.add("queue_\(state.rawValue)", counts[state] ?? 0) }
            line.add("exit_status", Int(summary.exitStatus))
            Console.output(line.line)
        } else {
            var text = "\(summary.completed) done, \(summary.failed) failed"
            if summary.pausedByError > 0 { text += ", \(summary.pausedByError) paused by an error" }
            text += "; in the queue: \(counts[.queued] ?? 0) queued, \(counts[.paused] ?? 0) paused, \(counts[.failed] ?? 0) failed"
            Console.error(text)
        }
    }
}
