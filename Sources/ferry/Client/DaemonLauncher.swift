import FerryQueue
import FerryRPC
import Foundation

/// `DaemonLauncher` starts `ferry daemon` in the background (`--detach`): the same command
/// again without `--detach`, in a session of its own, its messages appended to `ferry.log`,
/// and returns once the daemon answers on `control.sock` (or says why it could not start).
enum DaemonLauncher {
    /// `readyTimeout` is how long the launcher waits for the daemon's first answer.
    static let readyTimeout: Duration = .seconds(15)

    /// `launch(stateDirectory:arguments:announce:)` starts the daemon with `arguments` (the
    /// running command's own without `--detach` by default) and returns its pid once it
    /// answers; with `announce` it says so on stderr.
    @discardableResult
    static func launch(stateDirectory: StateDirectory, arguments given: [String]? = nil, announce: Bool = true) async throws -> Int32 {
        // Another engine on this queue: say so here rather than take its answers for ours.
        do {
            try EngineLock.acquire(at: stateDirectory.lockPath).release()
        } catch {
            throw QueueAccess.fail(error)
        }
        let arguments = (given ?? Array(CommandLine.arguments.dropFirst()).filter { $0 != "--detach" }) + ["--detached"]
        let log = open(stateDirectory.logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard log >= 0 else {
            Console.error("cannot open \(stateDirectory.logPath): \(String(cString: strerror(errno)))")
            throw ExitStatus.localFile
        }
        let logHandle = FileHandle(fileDescriptor: log, closeOnDealloc: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = logHandle
        process.standardError = logHandle
        do {
            try process.run()
        } catch {
            Console.error("cannot start the daemon: \(error)")
            throw ExitStatus.localFile
        }
        let deadline = ContinuousClock.now.advanced(by: readyTimeout)
        while ContinuousClock.now < deadline {
            guard process.isRunning else {
                Console.error("the daemon did not start (exit status \(process.terminationStatus)); see \(stateDirectory.logPath)")
                throw ExitStatus(code: process.terminationStatus == 0 ? 1 : process.terminationStatus)
            }
            if (try? await ControlClient.call(socketPath: stateDirectory.controlSocketPath, method: "aria2.getVersion",
                                              timeout: .seconds(2))) != nil {
                if announce { Console.error("daemon running in the background (pid \(process.processIdentifier)); ferry stop stops it") }
                return process.processIdentifier
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        Console.error("the daemon (pid \(process.processIdentifier)) did not answer within \(readyTimeout); see \(stateDirectory.logPath)")
        throw ExitStatus(code: 1)
    }
}
