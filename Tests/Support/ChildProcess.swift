import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `ChildProcess` is a process started with `posix_spawn` in a process group of its own,
/// whose standard output and error a dedicated reader thread captures in memory.
///
/// The child starts with an empty signal mask and default dispositions for the usual
/// signals, whatever the test process has blocked or ignored. Every descriptor the helper
/// creates is close-on-exec, so no other child inherits a pipe end. When the last reference
/// goes away while the child still runs, its process group gets `SIGKILL`.
///
/// All methods may be called from any thread.
public final class ChildProcess: Sendable {
    /// `Input` is what the child reads on its standard input.
    public enum Input: Sendable {
        /// `/dev/null`.
        case null
        /// These bytes, then end of file.
        case data(Data)
        /// A pipe that stays open, without data, until `closeInput()` or until this
        /// process dies: servers watch it to stop when the test process is gone.
        case keepOpen
    }

    /// `pid` is the child's process id; it is also its process group id.
    public let pid: pid_t
    /// `commandLine` is the executable path followed by the arguments.
    public let commandLine: [String]
    private let shared: Shared

    private init(pid: pid_t, commandLine: [String], shared: Shared) {
        self.pid = pid
        self.commandLine = commandLine
        self.shared = shared
    }

    deinit {
        shared.withLock { state in
            if state.termination == nil {
                sendSignal(-pid, SIGKILL)
            }
            if state.inputFD >= 0 {
                close(state.inputFD)
                state.inputFD = -1
            }
        }
    }

    /// `spawn(executable:arguments:environment:currentDirectory:input:)` starts a child.
    ///
    /// `executable` is a path or a bare name looked up in `PATH`. `environment` is the
    /// child's whole environment; `nil` (the default) inherits ours. `currentDirectory`
    /// `nil` (the default) keeps ours. `input` is `.null` by default.
    public static func spawn(
        executable: String,
        arguments: [String] = [],
        environment: [String: String]? = nil,
        currentDirectory: URL? = nil,
        input: Input = .null
    ) throws -> ChildProcess {
        let path = try resolveExecutable(executable, environment: environment)
        let stdoutPipe = try makePipe()
        let stderrPipe: (read: Int32, write: Int32)
        do { stderrPipe = try makePipe() } catch {
            closeAll([stdoutPipe.read, stdoutPipe.write])
            throw error
        }
        var stdinPipe: (read: Int32, write: Int32)?
        if case .null = input {} else {
            do { stdinPipe = try makePipe() } catch {
                closeAll([stdoutPipe.read, stdoutPipe.write, stderrPipe.read, stderrPipe.write])
                throw error
            }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdinPipe {
            posix_spawn_file_actions_adddup2(&actions, stdinPipe.read, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe.write, 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe.write, 2)
        var launchPath = path
        var launchArguments = [path] + arguments
        if let currentDirectory {
            if let addChdir = Native.addChdir {
                _ = currentDirectory.path.withCString { addChdir(&actions, $0) }
            } else {
                // Old C libraries: let the shell change directory, then exec the command.
                launchPath = "/bin/sh"
                launchArguments = ["/bin/sh", "-c", "cd -- \"$0\" && exec \"$@\"", currentDirectory.path]
                    + launchArguments
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(
            &attributes,
            Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        )
        posix_spawnattr_setpgroup(&attributes, 0)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGCHLD] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        let environmentLines = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        var pid: pid_t = 0
        let status = withCStringArray(launchArguments) { argv in
            if let environmentLines {
                return withCStringArray(environmentLines) { envp in
                    posix_spawn(&pid, launchPath, &actions, &attributes, argv, envp)
                }
            }
            return posix_spawn(&pid, launchPath, &actions, &attributes, argv, environ)
        }
        closeAll([stdoutPipe.write, stderrPipe.write, stdinPipe?.read ?? -1])
        guard status == 0 else {
            closeAll([stdoutPipe.read, stderrPipe.read, stdinPipe?.write ?? -1])
            throw TestSupportError.posix("posix_spawn \(path)", code: status)
        }

        let shared = Shared()
        var feed: (fd: Int32, data: Data)?
        switch input {
        case .null:
            break
        case .data(let data):
            feed = (stdinPipe?.write ?? -1, data)
        case .keepOpen:
            shared.withLock { $0.inputFD = stdinPipe?.write ?? -1 }
        }
        let reader = Reader(
            pid: pid, stdoutFD: stdoutPipe.read, stderrFD: stderrPipe.read,
            feedFD: feed?.fd ?? -1, feedData: feed?.data ?? Data(), shared: shared
        )
        Thread.detachNewThread { reader.pump() }
        return ChildProcess(pid: pid, commandLine: [path] + arguments, shared: shared)
    }

    /// `isRunning` is `true` until the child has exited and been reaped.
    public var isRunning: Bool {
        shared.withLock { $0.termination == nil }
    }

    /// `standardOutput` is what the child has written to its standard output so far.
    public var standardOutput: Data {
        shared.withLock { $0.stdout }
    }

    /// `standardError` is what the child has written to its standard error so far.
    public var standardError: Data {
        shared.withLock { $0.stderr }
    }

    /// `waitForOutput(timeout:until:)` blocks until `condition` holds for the standard
    /// output captured so far, the child has finished, or `timeout` passes. It returns
    /// whether `condition` held.
    public func waitForOutput(timeout: Duration, until condition: (Data) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout.seconds)
        return shared.wait(until: deadline) { state in
            condition(state.stdout) || state.finished
        } && shared.withLock { condition($0.stdout) }
    }

    /// `wait(timeout:)` blocks until the child has exited and its output is complete, and
    /// returns the result; `nil` when `timeout` passes first (the child keeps running).
    public func wait(timeout: Duration) -> ProcessResult? {
        let deadline = Date(timeIntervalSinceNow: timeout.seconds)
        guard shared.wait(until: deadline, for: { $0.finished }) else { return nil }
        return shared.withLock { state in
            guard let termination = state.termination else { return nil }
            return ProcessResult(
                termination: termination, standardOutput: state.stdout,
                standardError: state.stderr, timedOut: state.timedOut
            )
        }
    }

    /// `signal(_:)` sends `signal` to the child alone (not its group), unless it has
    /// already been reaped.
    public func signal(_ signal: Int32) {
        shared.withLock { state in
            if state.termination == nil {
                sendSignal(pid, signal)
            }
        }
    }

    /// `kill(timedOut:)` sends `SIGKILL` to the child's whole process group, unless the
    /// child has already been reaped. `timedOut` marks the result as timed out.
    public func kill(timedOut: Bool = false) {
        shared.withLock { state in
            if state.termination == nil {
                state.timedOut = state.timedOut || timedOut
                sendSignal(-pid, SIGKILL)
            }
        }
    }

    /// `terminate(grace:)` sends `SIGTERM` to the child, waits up to `grace` (5 s by
    /// default), then kills its process group, and returns the result (`nil` only if the
    /// child outlived `SIGKILL` for 10 s).
    @discardableResult
    public func terminate(grace: Duration = .seconds(5)) -> ProcessResult? {
        signal(SIGTERM)
        if let result = wait(timeout: grace) {
            return result
        }
        kill()
        return wait(timeout: .seconds(10))
    }

    /// `writeInput(_:)` writes `data` to the `.keepOpen` input pipe, blocking until the pipe
    /// has taken all of it (a command line of at most 4 KiB goes in one atomic write). It
    /// throws when the pipe was never open or is closed, or when the child has stopped
    /// reading (`EPIPE`; the calling thread gets no `SIGPIPE`).
    public func writeInput(_ data: Data) throws(TestSupportError) {
        let name = commandLine.first ?? "the child"
        let outcome: Result<Void, TestSupportError> = shared.withLock { state in
            guard state.inputFD >= 0 else {
                return .failure(TestSupportError("the standard input of \(name) is not open"))
            }
            return Result { () throws(TestSupportError) in try writeWithoutSIGPIPE(state.inputFD, data, to: name) }
        }
        try outcome.get()
    }

    /// `closeInput()` closes the `.keepOpen` input pipe, so the child reads end of file.
    public func closeInput() {
        shared.withLock { state in
            if state.inputFD >= 0 {
                close(state.inputFD)
                state.inputFD = -1
            }
        }
    }
}

// MARK: - Shared state

extension ChildProcess {
    /// `State` is everything the reader thread and the callers share.
    struct State {
        var stdout = Data()
        var stderr = Data()
        var termination: ProcessResult.Termination?
        /// `finished`: the child was reaped and its output pipes were drained.
        var finished = false
        var timedOut = false
        /// `inputFD` is the write end of a `.keepOpen` stdin pipe, or -1.
        var inputFD: Int32 = -1
    }

    /// `Shared` is `State` behind one condition lock.
    final class Shared: @unchecked Sendable {  // `state` is only touched with `condition` held
        private let condition = NSCondition()
        private var state = State()

        func withLock<R>(_ body: (inout State) -> R) -> R {
            condition.lock()
            defer {
                condition.broadcast()
                condition.unlock()
            }
            return body(&state)
        }

        /// Waits until `predicate` holds or `deadline` passes; returns whether it held.
        func wait(until deadline: Date, for predicate: (State) -> Bool) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while !predicate(state) {
                if !condition.wait(until: deadline) {
                    return predicate(state)
                }
            }
            return true
        }
    }

    /// `Reader` runs on its own thread: it feeds stdin, drains stdout and stderr, and
    /// reaps the child (under the lock, so no signal can reach a recycled pid).
    final class Reader: @unchecked Sendable {  // used by its own thread only after spawn
        let pid: pid_t
        var stdoutFD: Int32
        var stderrFD: Int32
        var feedFD: Int32
        let feedData: Data
        var feedOffset = 0
        let shared: Shared

        init(pid: pid_t, stdoutFD: Int32, stderrFD: Int32, feedFD: Int32, feedData: Data, shared: Shared) {
            self.pid = pid
            self.stdoutFD = stdoutFD
            self.stderrFD = stderrFD
            self.feedFD = feedFD
            self.feedData = feedData
            self.shared = shared
        }

        func pump() {
            // A write to a pipe whose reader has gone raises SIGPIPE in the writing thread:
            // block it here so the write fails with EPIPE instead of killing the test.
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            if feedFD >= 0 {
                _ = fcntl(feedFD, F_SETFL, fcntl(feedFD, F_GETFL) | O_NONBLOCK)
                if feedData.isEmpty { closeFeed() }
            }

            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            var exitedAt: Date?
            while true {
                var fds: [pollfd] = []
                if stdoutFD >= 0 { fds.append(pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)) }
                if stderrFD >= 0 { fds.append(pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)) }
                if feedFD >= 0 { fds.append(pollfd(fd: feedFD, events: Int16(POLLOUT), revents: 0)) }
                let exited = reap()
                if exited, exitedAt == nil { exitedAt = Date() }
                if exited, stdoutFD < 0, stderrFD < 0 { break }
                // After the exit, a grandchild may hold the pipes open: give it 2 s, then
                // kill what is left of the group (its open pipe shows the group still exists).
                if let exitedAt, Date().timeIntervalSince(exitedAt) > 2 {
                    sendSignal(-pid, SIGKILL)
                    break
                }
                let timeout: Int32 = fds.isEmpty ? 5 : 100
                let ready = poll(&fds, nfds_t(fds.count), timeout)
                if ready < 0 && errno != EINTR { break }
                for entry in fds where entry.revents != 0 {
                    if entry.fd == feedFD {
                        feed()
                    } else {
                        drain(entry.fd, into: &buffer)
                    }
                }
            }
            closeAll([stdoutFD, stderrFD])
            closeFeed()
            shared.withLock { $0.finished = true }
        }

        /// Reaps the child if it has exited; returns whether it has.
        private func reap() -> Bool {
            shared.withLock { state in
                if state.termination != nil { return true }
                var status: Int32 = 0
                let result = waitpid(pid, &status, WNOHANG)
                if result == pid {
                    state.termination = ProcessResult.Termination(waitStatus: status)
                    return true
                }
                if result < 0 && errno == ECHILD {
                    state.termination = .exited(-1)  // someone else reaped it
                    return true
                }
                return false
            }
        }

        private func drain(_ fd: Int32, into buffer: inout [UInt8]) {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                let chunk = buffer[0..<count]
                let isStdout = fd == stdoutFD
                shared.withLock { state in
                    if isStdout {
                        state.stdout.append(contentsOf: chunk)
                    } else {
                        state.stderr.append(contentsOf: chunk)
                    }
                }
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                close(fd)
                if fd == stdoutFD { stdoutFD = -1 } else { stderrFD = -1 }
            }
        }

        private func feed() {
            let remaining = feedData.count - feedOffset
            let written = feedData.withUnsafeBytes { bytes -> Int in
                let start = bytes.baseAddress!.advanced(by: feedOffset)
                return write(feedFD, start, min(remaining, 64 * 1024))
            }
            if written > 0 {
                feedOffset += written
                if feedOffset >= feedData.count { closeFeed() }
            } else if written < 0 && errno != EINTR && errno != EAGAIN {
                closeFeed()  // EPIPE: the child stopped reading
            }
        }

        private func closeFeed() {
            if feedFD >= 0 {
                close(feedFD)
                feedFD = -1
            }
        }
    }
}

// MARK: - Helpers
