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

extension DaemonClient: EngineDoor {
    func request(_ method: String, _ params: [JSONValue]) async throws -> Result<JSONValue, RPCError> {
        do {
            return .success(try await ControlClient.call(socketPath: socketPath, method: method, params: params))
        } catch .rpc(let error) {
            return .failure(error)
        }
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
