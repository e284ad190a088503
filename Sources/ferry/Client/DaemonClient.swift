import FerryQueue
import FerryRPC
import Foundation

/// `DaemonClient` is how a queue command reaches the daemon running its state directory: the
/// engine lock is held and `control.sock` answers. The command then acts through the daemon,
/// which acts at once (the journal's one-second poll is for other engines); otherwise it
/// acts on the journal as it always did.
struct DaemonClient {
    /// `Absent` means no daemon listens on the socket (the lock is held by another engine,
    /// `ferry resume` or the terminal UI, or by nothing): act on the journal. Thrown only
    /// when the request was not sent, so nothing was done twice.
    struct Absent: Error {}

    /// `socketPath` is the daemon's `control.sock`.
    let socketPath: String

    /// `init(_:)` is the client of the engine that may serve `directory`: `nil` when no socket
    /// file is there. The engine lock is not probed: taking it, even for an instant, would
    /// refuse an engine starting at that instant ("another ferry is running this queue"). A
    /// socket file left by a killed engine refuses the connection: the call throws `Absent`.
    init?(_ directory: StateDirectory) {
        guard access(directory.controlSocketPath, F_OK) == 0 else { return nil }
        socketPath = directory.controlSocketPath
    }

    /// `attempt(_:_:)` is `call(_:_:)` with the error the daemon answered returned, for a
    /// command that words some of them itself.
    func attempt(_ method: String, _ params: [JSONValue] = []) async throws -> Result<JSONValue, RPCError> {
        do {
            return .success(try await ControlClient.call(socketPath: socketPath, method: method, params: params))
        } catch .noDaemon {
            throw Absent()
        } catch .rpc(let error) {
            return .failure(error)
        } catch .badAnswer(let detail) {
            Console.error("the daemon did not answer \(method): \(detail)")
            throw ExitStatus.transferFailed
        } catch .notOwner(let path, let uid) {
            Console.error("refusing \(path): the process listening there runs as uid \(uid), not as you; nothing was sent")
            throw ExitStatus.localFile
        }
    }

    /// `fail(_:)` prints an error the daemon answered and is the status it ends the command
    /// with: 4 for the journal's errors, 2 for the others (a refused input).
    static func fail(_ error: RPCError) -> ExitStatus {
        Console.error(error.message)
        return error.message.hasPrefix("journal: ") ? ExitStatus.localFile : ExitStatus.usage
    }
}

extension DaemonClient {
    /// `Engine` is what `ferry.engine` says of the engine answering.
    struct Engine {
        /// `runsWholeQueue` is false for a `ferry get`'s engine, which runs only the
        /// downloads it was given (its own, and those it adopts); true for a daemon or a
        /// `ferry resume`.
        var runsWholeQueue = true
        /// `command` hosts it: `daemon`, `resume` or `get` (`daemon` when it does not say).
        var command = "daemon"
        /// `pid` is its process, when it says.
        var pid: Int64?

        /// `name` is how messages name it: "the daemon", or "ferry get (pid N)".
        var name: String {
            command == "get" ? "ferry get" + (pid.map { " (pid \($0))" } ?? "") : "the daemon"
        }
    }

    /// `engine()` asks the engine answering what it is; `nil` when none answers. An engine
    /// that does not say is taken for a daemon; a listener that is not the user's is said and
    /// ends the command (`attempt(_:_:)`).
    func engine() async throws -> Engine? {
        let answer: JSONValue
        do {
            guard case .success(let result) = try await attempt("ferry.engine") else { return Engine() }
            answer = result
        } catch is Absent {
            return nil
        }
        let fields = answer.objectValue
        return Engine(runsWholeQueue: fields?["runs"]?.stringValue != "own-tasks", command: fields?["command"]?.stringValue ?? "daemon",
                      pid: fields?["pid"]?.integerValue)
    }

    /// `runsWholeQueue()` is false when the engine answering is a `ferry get`'s, which runs
    /// only the downloads it was given (`ferry.engine`); true for a daemon or a `ferry resume`.
    func runsWholeQueue() async -> Bool {
        ((try? await engine()) ?? nil)?.runsWholeQueue ?? true
    }

    /// `acting(on:_:)` runs `body` with the daemon of `state`'s directory when one runs and
    /// returns `true`; `false` when none does (the caller then uses the journal).
    static func acting(on state: StateOptions, _ body: (DaemonClient) async throws -> Void) async throws -> Bool {
        guard let daemon = DaemonClient(try QueueAccess.directory(state)) else { return false }
        do {
            try await body(daemon)
            return true
        } catch is Absent {
            return false
        }
    }
}
