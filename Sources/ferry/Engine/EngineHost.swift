import FerryKit
import FerryQueue
import FerryRPC
import Foundation
import Synchronization

/// `EngineHost` is one running engine, and the one place outside FerryQueue that makes a
/// `Scheduler`: `ferry get`, `ferry resume` and `ferry daemon` each run exactly this.
///
/// - `acquire(_:policy:)` takes the state directory's engine lock, then opens its journal
///   (a journal set aside is said on stderr); another engine holding the lock is
///   `QueueError.lock(.heldByAnotherProcess)`, for the command to word.
/// - `start(_:delegateFactory:hooks:environment:)` makes the scheduler, has the hooks follow
///   its events and the network watch pause its transfers while no route is left.
/// - `serve(_:secret:tcp:allowOriginAll:allowAnyHost:onListening:onEnd:)` answers the RPC
///   method table on the state directory's `control.sock` (and, for the daemon, its TCP
///   endpoints), so `ferry list`, `pause`, `limit`, the terminal UI or an aria2 client reach
///   this engine as they reach a daemon.
/// - `close()` ends it in one order: the door (its socket file removed), the network watch,
///   the journal, then the lock (the command has stopped the scheduler, or seen it run out of
///   work, first). Calling it again does nothing.
///
/// How a command runs the scheduler, follows its events and takes signals stays its own:
/// `get` pauses its tasks on Ctrl-C, `resume` stops, the daemon serves RPC until told to stop.
///
/// Threads: `acquire`, `start` and `close` run on the command's task; the state sits in a
/// `Mutex`, so `close()` may come from any thread.
final class EngineHost: Sendable {
    let directory: StateDirectory
    let journal: Journal
    private let lock: EngineLock
    private let network = Mutex<NetworkMonitor?>(nil)
    private let door = Mutex<Task<Void, Never>?>(nil)
    private let closed = Mutex(false)

    private init(directory: StateDirectory, journal: Journal, lock: EngineLock) {
        self.directory = directory
        self.journal = journal
        self.lock = lock
    }

    /// `acquire(_:policy:)` takes the engine lock of `directory` and opens its journal with
    /// `policy` for a journal SQLite cannot read.
    static func acquire(_ directory: StateDirectory, policy: Journal.CorruptionPolicy) throws(QueueError) -> EngineHost {
        let lock = try EngineLock.acquire(at: directory.lockPath)
        do {
            let opening = try Journal.open(at: directory.journalPath, onCorruption: policy)
            if let message = opening.message { Console.error(message) }
            return EngineHost(directory: directory, journal: opening.journal, lock: lock)
        } catch {
            lock.release()
            throw error
        }
    }

    /// `start(_:delegateFactory:hooks:environment:)` makes the engine's scheduler (download
    /// delegates from `delegateFactory`, the scheduler's own by default), with `hooks`
    /// following its events and the network watch (unless the environment turns it off).
    /// The command then runs it (`run(untilIdle:)` or `startRunning(untilIdle:)`).
    func start(_ configuration: SchedulerConfiguration, delegateFactory: (any DownloadDelegateFactory)? = nil,
               hooks: HookOptions, environment: [String: String]) async -> Scheduler {
        let scheduler = Scheduler(journal: journal, configuration: configuration, delegateFactory: delegateFactory)
        HookRunner.follow(scheduler, journal: journal, hooks: hooks)
        let monitor = await NetworkWatch.start(for: scheduler, environment: environment)
        network.withLock { $0 = monitor }
        return scheduler
    }

    /// `serve(_:secret:tcp:allowOriginAll:allowAnyHost:onListening:onEnd:)` serves `engine`'s
    /// methods on `control.sock` (owner only, no token) and on `tcp` (the secret required)
    /// until `close()`. `onEnd` is called when the server ends by itself (an endpoint cannot
    /// be listened on), with what went wrong.
    func serve(_ engine: RPCEngine, secret: RPCSecret? = nil, tcp: [RPCEndpoint] = [], allowOriginAll: Bool = false,
               allowAnyHost: Bool = false, onListening: @escaping @Sendable (RPCEndpoint) -> Void = { _ in },
               onFailure: @escaping @Sendable (RPCEndpoint, any Error) -> Void = { _, _ in },
               onEnd: @escaping @Sendable (String) -> Void = { _ in }) {
        let endpoints = [RPCEndpoint(.unixSocket(path: directory.controlSocketPath))] + tcp
        let server = RPCServer(dispatcher: RPCDispatcher(engine: engine, secret: secret), allowOriginAll: allowOriginAll,
                               allowAnyHost: allowAnyHost)
        let serving = Task {
            do {
                try await server.run(on: endpoints, onListening: onListening, onFailure: onFailure)
                if !Task.isCancelled { onEnd("the RPC server ended") }
            } catch {
                if !Task.isCancelled { onEnd("cannot listen: \(error)") }
            }
        }
        door.withLock { $0 = serving }
    }

    /// `closeDoor()` stops serving and removes `control.sock`, once the server has let go of
    /// it; nothing when the engine serves no door.
    func closeDoor() async {
        guard let serving = door.withLock({ task in defer { task = nil }; return task }) else { return }
        serving.cancel()
        _ = await serving.result
        unlink(directory.controlSocketPath)
    }

    /// `close()` stops serving (the socket file removed), stops the network watch, closes the
    /// journal and releases the engine lock.
    func close() {
        guard closed.withLock({ done in defer { done = true }; return !done }) else { return }
        if let serving = door.withLock({ task in defer { task = nil }; return task }) {
            serving.cancel()
            unlink(directory.controlSocketPath)
        }
        network.withLock { monitor in
            monitor?.stop()
            monitor = nil
        }
        try? journal.close()
        lock.release()
    }
}
