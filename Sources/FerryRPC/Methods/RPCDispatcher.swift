import Foundation

/// `RPCOrigin` is where a request came from: the Unix socket (its file mode admits only the
/// owner, so no token is asked) or TCP (the secret is required).
public enum RPCOrigin: Sendable {
    case local
    case network
}

/// `RPCDispatcher` answers JSON-RPC 2.0 requests: single or batch, `system.multicall`, the
/// `token:` parameter, and an error for anything malformed. It never throws and never
/// crashes on input: every problem becomes a JSON-RPC error.
public struct RPCDispatcher: Sendable {
    /// `multicallName` is aria2's batch method.
    public static let multicallName = "system.multicall"
    /// `maximumRequestSize` is the largest request body read, 1 MiB; a larger one is refused.
    public static let maximumRequestSize = 1 << 20

    /// `Answer` is the body to send and whether a call was refused for its token (its
    /// answer was held back by the secret's `TokenThrottle`, as aria2 delays it).
    public struct Answer: Sendable {
        public let body: Data
        public let unauthorized: Bool
    }

    private let methods: [String: RPCMethod]
    let engine: RPCEngine
    private let secret: RPCSecret?
    let answerBytes: Int

    /// `init(engine:secret:methods:answerBytes:)` makes a dispatcher over `methods` (aria2's
    /// table by and Ferry's own by default); `secret` is required of TCP clients. One request's
    /// answer may be `answerBytes` long (`AnswerBudget.maximumBytes`, 64 MiB, by default).
    public init(
        engine: RPCEngine, secret: RPCSecret?, methods: [RPCMethod] = RPCDispatcher.methods,
        answerBytes: Int = AnswerBudget.maximumBytes
    ) {
        self.engine = engine
        self.secret = secret
        self.answerBytes = answerBytes
        self.methods = Dictionary(methods.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// `answer(_:origin:)` answers one HTTP request body (or WebSocket message) within one
    /// `AnswerBudget`: a call past it is answered with an error, and once it is spent the
    /// remaining calls of a batch are not run.
    public func answer(_ body: Data, origin: RPCOrigin) async -> Answer {
        await AnswerBudget.$current.withValue(AnswerBudget(bytes: answerBytes)) {
            await answerWithinBudget(body, origin: origin)
        }
    }

    private func answerWithinBudget(_ body: Data, origin: RPCOrigin) async -> Answer {
        var unauthorized = false
        let reply: JSONValue
        switch JSONValue.parse(body) {
        case nil:
            reply = RPCDispatcher.reply(id: .null, error: .parse)
        case .array(let requests)?:
            if requests.isEmpty {
                reply = RPCDispatcher.reply(id: .null, error: .invalidRequest)
            } else {
                var replies: [JSONValue] = []
                for request in requests {
                    replies.append(await answer(request: request, origin: origin, unauthorized: &unauthorized))
                }
                reply = .array(replies)
            }
        case let request?:
            reply = await answer(request: request, origin: origin, unauthorized: &unauthorized)
        }
        return Answer(body: reply.serialized(), unauthorized: unauthorized)
    }

    /// `errorBody(_:)` is the answer to a request that could not be read at all.
    public static func errorBody(_ error: RPCError) -> Data {
        reply(id: .null, error: error).serialized()
    }

    private func answer(request: JSONValue, origin: RPCOrigin, unauthorized: inout Bool) async -> JSONValue {
        guard let members = request.objectValue else {
            return RPCDispatcher.reply(id: .null, error: .invalidRequest)
        }
        let id = members["id"] ?? .null
        guard let name = members["method"]?.stringValue else {
            return RPCDispatcher.reply(id: id, error: .invalidRequest)
        }
        let params: [JSONValue]
        switch members["params"] {
        case nil, .null?: params = []
        case .array(let list)?: params = list
        default: return RPCDispatcher.reply(id: id, error: .invalidParams("params must be a list"))
        }
        do {
            let result = try await call(name, params: params, origin: origin, unauthorized: &unauthorized)
            return ["jsonrpc": "2.0", "id": id, "result": result]
        } catch {
            return RPCDispatcher.reply(id: id, error: error)
        }
    }

    func call(
        _ name: String, params: [JSONValue], origin: RPCOrigin, unauthorized: inout Bool
    ) async throws(RPCError) -> JSONValue {
        if name == RPCDispatcher.multicallName {
            return try await multicall(params, origin: origin, unauthorized: &unauthorized)
        }
        guard let method = methods[name] else { throw RPCError.methodNotFound(name) }
        let rest: [JSONValue]
        do {
            rest = try await authorize(method, params: params, origin: origin, refusedBefore: unauthorized)
        } catch {
            unauthorized = true
            throw error
        }
        let budget = AnswerBudget.current
        if let budget, budget.exceeded { throw AnswerBudget.exceededError(budget.limit) }
        let result = try await method.body(RPCCall(engine: engine, params: rest, origin: origin))
        if let budget {
            let size: Int
            if case .encoded(let data) = result { size = data.count } else { size = result.serialized().count }
            guard !budget.exceeded, budget.charge(size) else { throw AnswerBudget.exceededError(budget.limit) }
        }
        return result
    }

    /// `multicall(_:origin:unauthorized:)` runs `[{methodName, params}, ...]`: each answer
    /// is `[result]` or an error object, as in aria2; each call carries its own token.
    private func multicall(
        _ params: [JSONValue], origin: RPCOrigin, unauthorized: inout Bool
    ) async throws(RPCError) -> JSONValue {
        guard params.count == 1, let calls = params[0].arrayValue else {
            throw RPCError.invalidParams("system.multicall takes one list of {methodName, params}")
        }
        var results: [JSONValue] = []
        for entry in calls {
            guard let members = entry.objectValue, let name = members["methodName"]?.stringValue,
                  name != RPCDispatcher.multicallName else {
                results.append(RPCError.invalidRequest.json)
                continue
            }
            let arguments: [JSONValue]
            switch members["params"] {
            case nil, .null?: arguments = []
            case .array(let list)?: arguments = list
            default:
                results.append(RPCError.invalidParams("params must be a list").json)
                continue
            }
            do {
                results.append([try await call(name, params: arguments, origin: origin, unauthorized: &unauthorized)])
            } catch {
                results.append(error.json)
            }
        }
        return .array(results)
    }

    /// `authorize(_:params:origin:refusedBefore:)` takes the `token:` parameter off and, for a
    /// TCP client, checks it (in constant time). Once a token of a request was wrong
    /// (`refusedBefore`), no later token of that request is checked: a batch of guesses is
    /// one guess per delay, not thousands.
    private func authorize(
        _ method: RPCMethod, params: [JSONValue], origin: RPCOrigin, refusedBefore: Bool
    ) async throws(RPCError) -> [JSONValue] {
        var rest = params
        var token: String?
        if let first = params.first?.stringValue, first.hasPrefix("token:") {
            token = String(first.dropFirst("token:".count))
            rest.removeFirst()
        }
        guard method.needsToken, origin == .network else { return rest }
        guard !refusedBefore, let secret, await secret.admits(token: token) else { throw RPCError.unauthorized }
        return rest
    }

    private static func reply(id: JSONValue, error: RPCError) -> JSONValue {
        ["jsonrpc": "2.0", "id": id, "error": error.json]
    }
}
