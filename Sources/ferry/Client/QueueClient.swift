import FerryQueue
import FerryRPC
import Foundation

/// `QueueClient` is how a queue command (`add`, `pause`, `retry`, `remove`, `move`, `limit`)
/// reaches the queue: one interface, the RPC method table. The engine that serves the state
/// directory's `control.sock` (every engine does: a daemon, `ferry resume`, `ferry get`)
/// answers when one runs, and acts at once; otherwise the same dispatcher answers in this
/// process, over the journal (`JournalRunner`), for the next engine to find (one still
/// starting, not yet listening, reads the journal within a second). A command never asks
/// which: what it prints is the answer either way.
///
/// Threads: used from the command's task only.
final class QueueClient: EngineDoor {
    private enum Door {
        case socket(DaemonClient)
        case local(RPCDispatcher, Journal)
    }

    private var door: Door
    private let state: StateOptions

    private init(door: Door, state: StateOptions) {
        self.door = door
        self.state = state
    }

    /// `open(_:)` is the client of `state`'s queue: its engine's socket when one answers there,
    /// else this process's own dispatcher over the journal (opened as `QueueAccess.openJournal`
    /// opens it; its failures end the command).
    static func open(_ state: StateOptions) throws -> QueueClient {
        if let daemon = DaemonClient(try QueueAccess.directory(state)) {
            return QueueClient(door: .socket(daemon), state: state)
        }
        return QueueClient(door: try local(state), state: state)
    }

    private static func local(_ state: StateOptions) throws -> Door {
        let journal = try QueueAccess.openJournal(state)
        let directory = FileManager.default.currentDirectoryPath
        let engine = RPCEngine(journal: journal, runner: JournalRunner(journal: journal, defaultDirectory: directory),
                               defaultDirectory: directory, maximumConcurrent: SchedulerConfiguration.defaultMaximumConcurrent,
                               onShutdown: {})
        return .local(RPCDispatcher(engine: engine, secret: nil), journal)
    }

    /// `requestLimit` bounds the body of one request sent over the socket: half the engine's
    /// `RPCDispatcher.maximumRequestSize`, for room. `nil` in this process, where no body is
    /// written and a call may carry any number of tasks.
    var requestLimit: Int? {
        if case .socket = door { return RPCDispatcher.maximumRequestSize / 2 }
        return nil
    }

    /// `attempt(_:_:)` is `call(_:_:)` with the error answered returned, for a command that
    /// words some of them itself. An engine gone before the request was sent (it did nothing)
    /// leaves the call to this process's dispatcher.
    func attempt(_ method: String, _ params: [JSONValue] = []) async throws -> Result<JSONValue, RPCError> {
        switch door {
        case .socket(let daemon):
            do {
                return try await daemon.attempt(method, params)
            } catch is DaemonClient.Absent {
                door = try Self.local(state)
                return try await attempt(method, params)
            }
        case .local(let dispatcher, _):
            do throws(RPCError) {
                return .success(try await dispatcher.call(method, params))
            } catch {
                return .failure(error)
            }
        }
    }

    /// `request(_:_:)` is `attempt(_:_:)`, for `call(_:_:)` and `answer(_:_:read:)`.
    func request(_ method: String, _ params: [JSONValue]) async throws -> Result<JSONValue, RPCError> {
        try await attempt(method, params)
    }

    /// `close()` closes the journal this process opened, if it opened one.
    func close() {
        if case .local(_, let journal) = door { try? journal.close() }
    }
}
