import Foundation

extension RPCDispatcher {
    /// `call(_:_:)` runs one method in this process as a request on `control.sock` runs it
    /// (the local origin: no token asked), without JSON text in between, and returns its
    /// result, or throws the error it answered. `QueueClient` calls the engine this way when
    /// none serves a socket.
    public func call(_ method: String, _ params: [JSONValue] = []) async throws(RPCError) -> JSONValue {
        let outcome = await AnswerBudget.$current.withValue(AnswerBudget(bytes: answerBytes)) { () async -> Result<JSONValue, RPCError> in
            var unauthorized = false
            do throws(RPCError) {
                return .success(try await call(method, params: params, origin: .local, unauthorized: &unauthorized))
            } catch {
                return .failure(error)
            }
        }
        let result = try outcome.get()
        // A method may answer JSON it wrote itself (a long status list): read it back.
        guard case .encoded(let data) = result else { return result }
        guard let parsed = JSONValue.parse(data) else { throw RPCError.failed("the answer to \(method) is not JSON") }
        return parsed
    }

    /// `request(_:_:)` is the JSON-RPC 2.0 request of one call.
    public static func request(_ method: String, _ params: [JSONValue]) -> JSONValue {
        ["jsonrpc": "2.0", "id": "ferry", "method": .string(method), "params": .array(params)]
    }

    /// `result(of:)` reads a reply to one call: its `result`, or the error it carries; `nil`
    /// when `body` is not such a reply.
    public static func result(of body: Data) -> Result<JSONValue, RPCError>? {
        guard let reply = JSONValue.parse(body)?.objectValue else { return nil }
        if let error = reply["error"]?.objectValue {
            return .failure(RPCError(code: error["code"]?.integerValue ?? 0, message: error["message"]?.stringValue ?? ""))
        }
        return reply["result"].map { .success($0) }
    }
}
