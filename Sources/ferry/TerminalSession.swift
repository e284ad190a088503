import FerryKit
import FerryQueue
import FerryTUI
import Foundation

/// `TerminalSession` opens the terminal UI on a state directory: it checks the terminal,
/// takes the engine lock, opens the journal (saying so when an unreadable one was set
/// aside), runs the queue's `Scheduler` and the front end (on a thread of its own) until the
/// user quits, then stops the scheduler (transfers checkpointed and kept queued) and lets the
/// controller finish its writes before the journal is closed and the lock released.
enum TerminalSession {
    /// `run(_:)` runs the UI; it throws `ExitStatus.usage` (2) when standard input or output
    /// is not a terminal or another ferry holds the queue, `ExitStatus.localFile` (4) when
    /// the state directory or journal cannot be used.
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
        let directory: StateDirectory
        let lock: EngineLock
        let opening: JournalOpening
        do throws(QueueError) {
            directory = try StateDirectory.prepare(argument: options.stateDirectory, environment: environment)
            lock = try EngineLock.acquire(at: directory.lockPath)
        } catch {
            Console.error(error.description)
            if case .lock(.heldByAnotherProcess) = error { throw ExitStatus.usage }
            throw ExitStatus.localFile
        }
        defer { lock.release() }
        do throws(QueueError) {
            opening = try Journal.open(at: directory.journalPath)
            _ = try opening.journal.requeueInterrupted()
        } catch {
            Console.error(error.description)
            throw ExitStatus.localFile
        }
        let journal = opening.journal
        defer { try? journal.close() }
        // The dialog offers the directory of the last download added (in an earlier run too),
        // unless --dir names one for this run.
        let memory = DirectoryMemory(stateDirectory: directory.path)
        let tui = TUIEnvironment(
            defaultDirectory: defaultDirectory(options.directory, environment: environment),
            lastDirectory: options.directory == nil ? memory.load() : nil,
            homeDirectory: environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
        )
        // The controller reads the journal's revision once a second and tells the scheduler
        // when it moved, so the scheduler needs no poll of its own while the UI is open.
        let configuration = SchedulerConfiguration(
            defaultDirectory: tui.defaultDirectory, maximumConcurrent: options.limits.maxConcurrent,
            maximumPerHost: options.limits.maxPerHost, pollInterval: .seconds(3600)
        )
        let scheduler = Scheduler(journal: journal, configuration: configuration)
        let controller = QueueController(journal: journal, activity: SchedulerActivity(scheduler: scheduler), directoryMemory: memory)
        defer { controller.close() }
        let running = await scheduler.startRunning()
        let outcome = await runOnOwnThread(controller: controller, environment: tui, notice: opening.message)
        // Running transfers checkpoint and stay queued for next time; then the controller
        // finishes its writes (deferred) before the journal closes.
        await scheduler.stop()
        await running.value
        switch outcome {
        case .success:
            return
        case .failure(.notATerminal):
            Console.error("the terminal UI needs a terminal on standard input and output")
            throw ExitStatus.usage
        case .failure(let error):
            Console.error("terminal: \(error)")
            throw ExitStatus.usage
        }
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
