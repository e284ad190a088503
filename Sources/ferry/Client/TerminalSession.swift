import FerryKit
import FerryQueue
import FerryRPC
import FerryTUI
import Foundation

/// `TerminalSession` opens the terminal UI on a state directory as a client of its daemon:
/// it checks the terminal, attaches to the daemon running the queue or, when none runs,
/// opens the journal under the engine lock (saying so when an unreadable one was set aside),
/// starts one in the background and attaches to it. The UI reads and writes the journal
/// itself (like `ferry add` from another shell) and follows the daemon's transfers through
/// `DaemonActivity`. Quitting leaves the transfers running in the daemon; `ferry stop` stops it.
enum TerminalSession {
    /// `run(_:)` runs the UI; it throws `ExitStatus.usage` (2) when standard input or output
    /// is not a terminal or another ferry (not a daemon) holds the queue,
    /// `ExitStatus.localFile` (4) when the state directory or journal cannot be used.
    static func run(_ options: TerminalOptions) async throws {
        if let frames = options.renderBenchmarkFrames {
            RenderBenchmark.run(frames: frames)
            return
        }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            Console.error("the terminal UI needs a terminal on standard input and output; in scripts use ferry get, ferry put or ferry add")
            throw ExitStatus.usage
        }
        let environment = ProcessInfo.processInfo.environment
        // A bad rule stops the window before anything starts (the daemon reads them again).
        _ = try options.trustRules.checkedManager(environment: environment)
        let directory: StateDirectory
        do throws(QueueError) {
            directory = try StateDirectory.prepare(argument: options.stateDirectory, environment: environment)
        } catch {
            Console.error(error.description)
            throw ExitStatus.localFile
        }
        let socketPath = directory.controlSocketPath
        var notice: String?
        if !(await daemonAnswers(socketPath)) {
            notice = try prepareJournal(directory)
            // Started for this window: it exits once nothing is left to run and no client follows it.
            var arguments = ["daemon", "--exit-when-idle", "--state-dir", directory.path,
                             "--max-concurrent", String(options.limits.maxConcurrent), "--max-per-host", String(options.limits.maxPerHost)]
            if let dir = options.directory { arguments += ["--dir", dir] }
            arguments += options.hooks.arguments
            arguments += options.trustRules.arguments
            try await DaemonLauncher.launch(stateDirectory: directory, arguments: arguments, announce: false)
        }
        let journal: Journal
        do throws(QueueError) {
            journal = try Journal.open(at: directory.journalPath).journal
        } catch {
            Console.error(error.description)
            throw ExitStatus.localFile
        }
        defer { try? journal.close() }
        // The daemon (started now or already running) notices the budgets within its poll interval.
        try options.limits.bandwidth.record(on: journal)
        // The dialog offers the directory of the last download added (in an earlier run too),
        // unless --dir names one for this run.
        let memory = DirectoryMemory(stateDirectory: directory.path)
        var tui = TUIEnvironment(
            defaultDirectory: defaultDirectory(options.directory, environment: environment),
            lastDirectory: options.directory == nil ? memory.load() : nil,
            homeDirectory: environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
        )
        tui.ringsWhenQueueEmpties = options.bell
        let activity = DaemonActivity(socketPath: socketPath)
        let controller = QueueController(journal: journal, activity: activity, directoryMemory: memory)
        let outcome = await runOnOwnThread(controller: controller, environment: tui, notice: notice)
        // The controller finishes its writes before the journal closes.
        controller.close()
        switch outcome {
        case .success where activity.stopRequested:
            try await StopCommand.stop(directory)
        case .success:
            await sayWhatGoesOn(journal, socketPath: socketPath)
        case .failure(.notATerminal):
            Console.error("the terminal UI needs a terminal on standard input and output")
            throw ExitStatus.usage
        case .failure(let error):
            Console.error("terminal: \(error)")
            throw ExitStatus.usage
        }
    }

    /// `daemonAnswers(_:)` is true when a daemon answers on `socketPath`.
    /// `daemonAnswers(_:)` is true when an engine that runs the whole queue (a daemon, a
    /// `ferry resume`) answers on `socketPath`; a `ferry get`'s engine runs only its own
    /// downloads, so what the window adds would wait: the window does not attach to it.
    private static func daemonAnswers(_ socketPath: String) async -> Bool {
        guard let answer = try? await ControlClient.call(socketPath: socketPath, method: "ferry.engine", timeout: .seconds(2)) else {
            return false
        }
        return answer.objectValue?["runs"]?.stringValue != "own-tasks"
    }

    /// `prepareJournal(_:)` opens the journal under the engine lock before a daemon is
    /// started, so that an unreadable journal is set aside here and the UI can say so (the
    /// returned notice), and puts tasks left running by a crash back in the queue. A
    /// `ferry get` holding the queue: exit 2.
    private static func prepareJournal(_ directory: StateDirectory) throws -> String? {
        let lock: EngineLock
        do throws(QueueError) {
            lock = try EngineLock.acquire(at: directory.lockPath)
        } catch {
            let status = QueueAccess.fail(error)
            if case .lock(.heldByAnotherProcess) = error {
                // No engine of the whole queue answered: the holder is a ferry get, which runs its own downloads only.
                Console.error("it is a ferry get, which runs only its own downloads; it ends with them (Ctrl-C in its terminal stops it and keeps them queued; ferry list shows them meanwhile). Start ferry daemon first to watch such runs: ferry get hands its downloads to it.")
            }
            throw status
        }
        defer { lock.release() }
        do throws(QueueError) {
            let opening = try Journal.open(at: directory.journalPath)
            _ = try opening.journal.requeueInterrupted()
            try opening.journal.close()
            return opening.message
        } catch {
            Console.error(error.description)
            throw ExitStatus.localFile
        }
    }

    /// `sayWhatGoesOn(_:socketPath:)` tells the user, after the UI closed, that transfers go
    /// on in the daemon and how to stop it (nothing when nothing is left to run), or, when no
    /// daemon answers any more (it was killed), that nothing runs and how to run the queue.
    private static func sayWhatGoesOn(_ journal: Journal, socketPath: String) async {
        guard let counts = try? journal.countsByState() else { return }
        let running = counts[.running, default: 0]
        let queued = counts[.queued, default: 0]
        guard running + queued > 0 else { return }
        guard await daemonAnswers(socketPath) else {
            Console.error("the daemon is gone: no transfer is running (\(running + queued) left in the queue); ferry or ferry resume runs them")
            return
        }
        Console.error("transfers go on in the background (\(running) running, \(queued) queued); ferry stop stops them")
    }

    /// `runOnOwnThread(controller:environment:notice:)` runs `TerminalApp` on a dedicated
    /// thread (its loop blocks in `poll`) and returns when it has ended, the terminal restored.
    private static func runOnOwnThread(
        controller: QueueController, environment: TUIEnvironment, notice: String?
    ) async -> Result<Void, TerminalError> {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                do throws(TerminalError) {
                    let app = try TerminalApp(controller: controller, environment: environment)
                    if let notice { app.inbox.show(StatusMessage(notice, isError: true)) }
                    try app.run()
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = "ferry-tui"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// `defaultDirectory(_:environment:)` is the directory the add dialog offers: `--dir`,
    /// else the usual download directory, else the current directory.
    private static func defaultDirectory(_ option: String?, environment: [String: String]) -> String {
        do throws(FerryError) {
            return try DownloadDirectory.prepare(option, environment: environment).path
        } catch {
            return FileManager.default.currentDirectoryPath
        }
    }
}
