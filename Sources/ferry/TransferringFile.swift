import FerryKit
import FerryQueue
import Foundation
import Synchronization

/// `TransferringFile` tells `ferry list` which tasks a `ferry get` or `ferry resume` running
/// on its own (without a daemon) is transferring at the moment. Such an engine is handed tasks
/// ahead of their turn, and the journal marks each one `running` when it is handed over: the
/// journal alone shows up to nine times `--max-concurrent` tasks running. (A daemon answers
/// `ferry list` itself.)
///
/// The file `transferring` in the state directory holds the writer's pid on its first line,
/// then one task id per line: the tasks started (`SchedulerEvent.started`) whose network part
/// is not over. It is replaced whole (written beside, then renamed) at most every 250 ms while
/// that set changes, and removed when the run ends. `read(_:)` trusts it only while its pid is
/// alive and holds the engine lock (the pid in `engine.lock`).
///
/// Threads: `take(_:)` runs on the threads that publish scheduler events; the writes on a task
/// of their own; `finish()` on the command's. The set sits in a `Mutex`.
final class TransferringFile: Sendable {
    private struct State {
        var ids: Set<TaskID> = []
        var changed = false
    }

    /// How often the file may be replaced while the set changes.
    static let interval: Duration = .milliseconds(250)

    private let path: String
    private let state = Mutex(State())
    private let writer = Mutex<Task<Void, Never>?>(nil)
    /// Held while the file is written or removed; true once `finish()` removed it.
    private let finished = Mutex(false)

    private init(path: String) {
        self.path = path
    }

    /// `follow(_:in:)` keeps the file of `directory` up to date with what `scheduler` transfers
    /// until `finish()`.
    static func follow(_ scheduler: Scheduler, in directory: StateDirectory) -> TransferringFile {
        let file = TransferringFile(path: directory.transferringPath)
        unlink(file.path) // one left by a killed run
        scheduler.observe { [file] event in file.take(event) }
        file.writer.withLock { writer in
            writer = Task.detached { [file] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: TransferringFile.interval)
                    file.writeIfChanged()
                }
            }
        }
        return file
    }

    private func take(_ event: SchedulerEvent) {
        switch event {
        case .started(let id):
            state.withLock { state in
                guard state.ids.insert(id).inserted else { return }
                state.changed = true
            }
        case .transferred(let id), .ended(let id, _, _, _):
            state.withLock { state in
                guard state.ids.remove(id) != nil else { return }
                state.changed = true
            }
        default:
            break
        }
    }

    private func writeIfChanged() {
        finished.withLock { finished in
            guard !finished else { return }
            let ids = state.withLock { state -> [TaskID]? in
                guard state.changed else { return nil }
                state.changed = false
                return state.ids.sorted()
            }
            guard let ids else { return }
            let text = ([String(getpid())] + ids.map { String($0.rawValue) }).joined(separator: "\n") + "\n"
            let temporary = path + ".new"
            // For a reader of the same user; a failure only leaves `ferry list` the journal's view.
            let fd = SystemCall.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard fd >= 0 else { return }
            let written = Array(text.utf8).withUnsafeBytes { SystemCall.writeAll(fd, $0) }
            close(fd)
            if written != nil || rename(temporary, path) != 0 { unlink(temporary) }
        }
    }

    /// `finish()` stops the writes and removes the file.
    func finish() {
        writer.withLock { writer in
            writer?.cancel()
            writer = nil
        }
        finished.withLock { finished in
            finished = true
            unlink(path)
            unlink(path + ".new")
        }
    }

    /// `read(_:)` is the set of tasks the engine holding `directory` without a daemon is
    /// transferring, or `nil` when no such engine has written it (the journal's view stands).
    static func read(_ directory: StateDirectory) -> Set<TaskID>? {
        guard let text = try? String(contentsOfFile: directory.transferringPath, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n")
        guard let first = lines.first, let pid = Int32(first), pid > 0, kill(pid, 0) == 0 else { return nil }
        guard EngineLock.holder(at: directory.lockPath) == pid else { return nil }
        return Set(lines.dropFirst().compactMap { Int64($0).map(TaskID.init(rawValue:)) })
    }
}
