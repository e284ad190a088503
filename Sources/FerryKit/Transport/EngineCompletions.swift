import Dispatch
import Synchronization

/// `EngineCompletions` runs the last callback (`didCompleteWith`) of the transfers an engine saw
/// end on their own, off the engine thread, on two bookkeeping threads of its own.
///
/// `completionThread` makes the files of the transfers that ended well durable, taking every
/// waiting one at each turn (`GroupSync`), a little below the engine's priority
/// (`BookkeepingThread`); `namingThread` then runs their delegates' `didCompleteWith` (which
/// names the files), in the order they ended. The two overlap: while one batch waits for the
/// disk, the one before it is named, so that a run of small files is not held up by the sum
/// of both (5,000 files of 16 KiB at 16 at once: about 230 ms in syncs, 155 ms naming). The
/// delegates handed over belong to these threads from then on (the engine never touches them
/// again).
///
/// Threads: `hand(_:)` on the engine thread, `finish()` on the thread that shuts the engine
/// down; the rest on the two bookkeeping threads. The waiting completions sit in a `Mutex`.
final class EngineCompletions: Sendable {
    /// `Completion` is a transfer that ended on its own, waiting for its `didCompleteWith`.
    struct Completion {
        let task: TransferTask
        let delegate: any TaskDelegate
        let transport: Result<HTTPResponse, FerryError>
        let bytesSent: Int64
    }

    /// `Waiting` are the completions not yet run, and whether a drain is queued.
    private struct Waiting {
        var completions: [Completion] = []
        var draining = false
    }

    private let completionThread = BookkeepingThread(name: "ferry-complete")
    private let namingThread = BookkeepingThread(name: "ferry-name")
    private let pending = DispatchGroup()
    private let waiting = Mutex(Waiting())
    /// The engine's unnamed files made ahead: the naming thread makes successors of those named.
    private let unnamedFiles: UnnamedFileReserve

    init(unnamedFiles: UnnamedFileReserve) {
        self.unnamedFiles = unnamedFiles
    }

    /// `hand(_:)` gives ended transfers to the completion thread, queuing a drain unless one is
    /// queued or running (it will take them).
    func hand(_ ended: [Completion]) {
        guard !ended.isEmpty else { return }
        let startsDrain = waiting.withLock { state -> Bool in
            state.completions.append(contentsOf: ended)
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        guard startsDrain else { return }
        pending.enter()
        completionThread.submit { [self] in
            drain()
            pending.leave()
        }
    }

    /// `finish()` waits until every completion handed over has run, then stops both threads.
    func finish() {
        pending.wait()
        completionThread.stop()
        namingThread.stop()
    }

    /// `drain()` runs on the completion thread until no completion waits: each turn makes the
    /// files of every waiting transfer durable together, then has the naming thread run their
    /// `didCompleteWith` in the order they ended.
    private func drain() {
        while true {
            let batch = waiting.withLock { state -> [Completion] in
                if state.completions.isEmpty { state.draining = false }
                defer { state.completions.removeAll(keepingCapacity: true) }
                return state.completions
            }
            if batch.isEmpty { return }
            // Durability is the downloads' business (`Download/`): one group sync for them all.
            var ended: [any TaskDelegate] = []
            for completion in batch {
                if case .success = completion.transport { ended.append(completion.delegate) }
            }
            GroupSync.makeDurable(ended)
            pending.enter()
            namingThread.submit { [self] in
                for completion in batch {
                    let outcome = completion.delegate.task(completion.task, didCompleteWith: completion.transport,
                                                           bytesSent: completion.bytesSent)
                    completion.task.finish(outcome)
                }
                // The small files just named get successors made here, off the engine thread.
                unnamedFiles.replenish()
                pending.leave()
            }
        }
    }
}
