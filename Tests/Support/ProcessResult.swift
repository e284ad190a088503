import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `ProcessResult` is how a child process ended and everything it wrote.
public struct ProcessResult: Sendable {
    /// `Termination` is how the process ended: its exit status or the signal that ended it.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .signaled(let signal): "signal \(signal)"
            }
        }

        /// Decodes a `waitpid` status word (the `WIFEXITED` family are macros Swift cannot import).
        init(waitStatus status: Int32) {
            if status & 0x7F == 0 {
                self = .exited((status >> 8) & 0xFF)
            } else {
                self = .signaled(status & 0x7F)
            }
        }
    }

    /// `termination` is the exit status or the terminating signal.
    public let termination: Termination
    /// `standardOutput` is everything the process wrote to its standard output.
    public let standardOutput: Data
    /// `standardError` is everything the process wrote to its standard error.
    public let standardError: Data
    /// `timedOut` is `true` when the runner killed the process because its time was up.
    public let timedOut: Bool

    /// `exitStatus` is the exit status, or `nil` when a signal ended the process.
    public var exitStatus: Int32? {
        if case .exited(let status) = termination { return status }
        return nil
    }

    /// `signal` is the signal that ended the process, or `nil` when it exited.
    public var signal: Int32? {
        if case .signaled(let signal) = termination { return signal }
        return nil
    }

    /// `killedBySignal` is `true` when a signal ended the process.
    public var killedBySignal: Bool { signal != nil }

    /// `succeeded` is `true` for exit status 0.
    public var succeeded: Bool { termination == .exited(0) }

    /// `stdout` is the standard output decoded as UTF-8 (invalid bytes replaced).
    public var stdout: String { String(decoding: standardOutput, as: UTF8.self) }

    /// `stderr` is the standard error decoded as UTF-8 (invalid bytes replaced).
    public var stderr: String { String(decoding: standardError, as: UTF8.self) }
}

/// `run(executable:arguments:environment:currentDirectory:stdin:timeout:)` runs a child
/// process to the end and returns how it ended with its complete output.
///
/// - Parameters:
///   - executable: a path, or a bare name looked up in `PATH`.
///   - environment: the child's whole environment; `nil` (the default) inherits ours.
///     To add variables pass `ProcessInfo.processInfo.environment.merging(extra) { $1 }`.
///   - currentDirectory: the child's working directory; `nil` (the default) keeps ours.
///   - stdin: bytes fed to the child's standard input, then end of file; `nil` (the
///     default) connects it to `/dev/null`.
///   - timeout: when it passes, the child's whole process group gets `SIGKILL` and the
///     result has `timedOut == true`. 60 seconds by default.
///
/// Output is read while the child runs, so a chatty child never blocks on a full pipe.
/// The call blocks the calling thread; it throws only when the child cannot be started.
public func run(
    executable: String,
    arguments: [String] = [],
    environment: [String: String]? = nil,
    currentDirectory: URL? = nil,
    stdin: Data? = nil,
    timeout: Duration = .seconds(60)
) throws -> ProcessResult {
    let child = try ChildProcess.spawn(
        executable: executable,
        arguments: arguments,
        environment: environment,
        currentDirectory: currentDirectory,
        input: stdin.map { .data($0) } ?? .null
    )
    if let result = child.wait(timeout: timeout) {
        return result
    }
    child.kill(timedOut: true)
    if let result = child.wait(timeout: .seconds(10)) {
        return result
    }
    throw TestSupportError("\(executable) (pid \(child.pid)) survived SIGKILL for 10 s")
}
