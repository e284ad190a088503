import ArgumentParser
import FerryQueue
import FerryRPC
import Foundation

/// `StopCommand` is `ferry stop`: asks the daemon of the state directory to stop (through
/// `control.sock`) and waits until it has (its transfers checkpointed and kept queued).
struct StopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop",
        abstract: "Stop the daemon of the state directory (or a ferry resume or ferry get running it, as SIGTERM would).",
        discussion: "Running transfers are checkpointed and their partial files kept. Exit status 0 once the engine has stopped, 1 when none runs for this state directory."
    )

    /// `stopTimeout` is how long `ferry stop` waits for the daemon to let the queue go.
    static let stopTimeout: Duration = .seconds(60)

    @OptionGroup var state: StateOptions

    func run() async throws {
        try await Self.stop(try QueueAccess.directory(state))
    }

    /// `stop(_:)` asks the daemon of `stateDirectory` to stop and waits until it let the
    /// queue go, saying so; throws an exit status when no daemon runs or it does not stop.
    static func stop(_ stateDirectory: StateDirectory) async throws {
        let socket = stateDirectory.controlSocketPath
        // Which command hosts the engine, for the words: a daemon, or a ferry get or resume.
        // A listener that is not the user's is said, and nothing is sent to it (`attempt`).
        let engine = try await DaemonClient(stateDirectory)?.engine()
        let stopped = Self.stoppedMessage(engine)
        do {
            _ = try await ControlClient.call(socketPath: socket, method: "aria2.shutdown")
        } catch .noDaemon {
            Console.error("no ferry daemon runs for \(stateDirectory.path)")
            throw ExitStatus.transferFailed
        } catch {
            Console.error("the engine did not take the request: \(error)")
            throw ExitStatus.transferFailed
        }
        let deadline = ContinuousClock.now.advanced(by: StopCommand.stopTimeout)
        while ContinuousClock.now < deadline {
            if let lock = try? EngineLock.acquire(at: stateDirectory.lockPath) {
                lock.release()
                Console.error(stopped)
                return
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        Console.error("the engine was asked to stop but still holds the queue after \(StopCommand.stopTimeout)")
        throw ExitStatus.transferFailed
    }

    /// `stoppedMessage(_:)` says what stopped: the daemon, or the `ferry get` or
    /// `ferry resume` that ran the engine, and what became of their transfers.
    static func stoppedMessage(_ engine: DaemonClient.Engine?) -> String {
        switch engine?.command {
        case "get": return "\(engine?.name ?? "ferry get") stopped; its downloads are paused, their partial files kept (run the same command again to resume)"
        case "resume": return "ferry resume\(engine?.pid.map { " (pid \($0))" } ?? "") stopped; unfinished transfers stay queued"
        default: return "daemon stopped"
        }
    }
}
