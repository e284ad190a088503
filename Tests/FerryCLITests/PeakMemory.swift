import FerryTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `MeasuredRun` is how a child ended and the most memory it held: the largest `VmHWM` (its
/// own peak resident size since its `exec`) read from `/proc/PID/status` while it ran.
/// `wait4`'s `ru_maxrss` would not do: a child started with `posix_spawn` shares the test
/// process's memory until its `exec`, and the kernel counts that peak as the child's.
struct MeasuredRun {
    let exitStatus: Int32?
    let peakResidentKiB: Int
    let stderr: String
    let timedOut: Bool
}

/// `runMeasured(_:environment:stdout:timeout:)` runs `ferry` with its standard output written
/// to the file `stdout` (a huge reply is not read into the test's memory), its standard error
/// to a file next to it and its standard input from `/dev/null`, reading its peak memory every
/// 10 ms until it exits. A child still running at `timeout` is killed (`timedOut`).
func runMeasured(_ arguments: [String], environment: [String: String], stdout: URL, timeout: Duration = .seconds(180)) throws -> MeasuredRun {
    let executable = try ferryExecutableURL().path
    let stderrURL = stdout.appendingPathExtension("stderr")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, stderrURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv = [executable] + arguments
    let envp = environment.map { "\($0.key)=\($0.value)" }
    var pid: pid_t = 0
    let cArgv = argv.map { strdup($0) } + [nil]
    let cEnvp = envp.map { strdup($0) } + [nil]
    defer {
        for pointer in cArgv { free(pointer) }
        for pointer in cEnvp { free(pointer) }
    }
    let spawned = posix_spawn(&pid, executable, &actions, nil, cArgv, cEnvp)
    guard spawned == 0 else { throw TestSupportError("posix_spawn \(executable) failed: \(spawned)") }
    let deadline = ContinuousClock.now + timeout
    var status: Int32 = 0
    var timedOut = false
    var peak = 0
    while true {
        // Read before reaping: once it has exited, its memory and its figures are gone.
        peak = max(peak, highWaterMarkKiB(pid: pid) ?? 0)
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid { break }
        if reaped < 0 && errno != EINTR { throw TestSupportError("waitpid failed: \(errno)") }
        if ContinuousClock.now > deadline && !timedOut {
            timedOut = true
            kill(pid, SIGKILL)
        }
        usleep(10_000)
    }
    let exited = status & 0x7F == 0
    let stderr = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
    return MeasuredRun(exitStatus: exited ? (status >> 8) & 0xFF : nil, peakResidentKiB: peak, stderr: stderr, timedOut: timedOut)
}

/// `highWaterMarkKiB(pid:)` is the `VmHWM` line of `/proc/PID/status` in KiB, `nil` when
/// there is none (not started yet, or exited).
private func highWaterMarkKiB(pid: pid_t) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
    return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
}
