import FerryQueue
import FerryRPC

/// `EngineDoor` is how a command calls the RPC methods of the engine running its queue: over
/// `control.sock` (`DaemonClient`), or in this process against the engine's own dispatcher
/// (`LocalDoor`, for an engine this process hosts). What it asks and what it reads of the
/// answers are the same either way.
protocol EngineDoor {
    /// `request(_:_:)` calls `method`: its result, or the error the engine answered; throws
    /// when the engine cannot be reached (or its answer cannot be read).
    func request(_ method: String, _ params: [JSONValue]) async throws -> Result<JSONValue, RPCError>
}

extension EngineDoor {
    /// `call(_:_:)` calls a method and returns its result. An error the engine answers is
    /// printed and ends the command: status 4 for the journal's errors, 2 for the others (a
    /// refused input).
    func call(_ method: String, _ params: [JSONValue] = []) async throws -> JSONValue {
        switch try await request(method, params) {
        case .success(let result): return result
        case .failure(let error): throw DaemonClient.fail(error)
        }
    }

    /// `answer(_:_:read:)` calls a method whose answer must be read by `read`: an answer it
    /// cannot read ends the command with status 1.
    func answer<T>(_ method: String, _ params: [JSONValue] = [], read: (JSONValue) -> T?) async throws -> T {
        let result = try await call(method, params)
        guard let value = read(result) else {
            Console.error("the engine's answer to \(method) is not understood")
            throw ExitStatus.transferFailed
        }
        return value
    }
}

extension DaemonClient: EngineDoor {
    /// `request(_:_:)` is `attempt(_:_:)`: `Absent` when no engine listens (nothing was sent).
    func request(_ method: String, _ params: [JSONValue]) async throws -> Result<JSONValue, RPCError> {
        try await attempt(method, params)
    }
}

/// `LocalDoor` calls the methods of an engine this process hosts, through its dispatcher,
/// as its socket would (no token: the process is the engine's own).
struct LocalDoor: EngineDoor {
    let dispatcher: RPCDispatcher

    func request(_ method: String, _ params: [JSONValue]) async throws -> Result<JSONValue, RPCError> {
        do throws(RPCError) {
            return .success(try await dispatcher.call(method, params))
        } catch {
            return .failure(error)
        }
    }
}
