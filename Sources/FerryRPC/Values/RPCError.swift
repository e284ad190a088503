import FerryQueue

/// `RPCError` is a JSON-RPC error: its code and message, as the answer carries them.
///
/// The codes of JSON-RPC 2.0 are used for protocol errors; a method that fails answers code
/// `1` with a message, as aria2 does (its clients show the message).
public struct RPCError: Error, Sendable, Hashable {
    /// `code` is the JSON-RPC error code.
    public let code: Int64
    /// `message` says what went wrong; it never carries a secret.
    public let message: String

    /// `init(code:message:)` makes an error.
    public init(code: Int64, message: String) {
        self.code = code
        self.message = message
    }

    /// `parse` (-32700): the request is not JSON.
    public static let parse = RPCError(code: -32700, message: "Parse error.")
    /// `invalidRequest` (-32600): JSON, but not a request object.
    public static let invalidRequest = RPCError(code: -32600, message: "Invalid Request.")
    /// `tooLarge` (-32600): the request is larger than the server accepts.
    public static func tooLarge(limit: Int) -> RPCError {
        RPCError(code: -32600, message: "Request too large (more than \(limit) bytes).")
    }
    /// `methodNotFound` (-32601): no method of that name.
    public static func methodNotFound(_ name: String) -> RPCError {
        RPCError(code: -32601, message: "Method not found: \(name.prefix(100))")
    }
    /// `invalidParams` (-32602): the parameters have the wrong number or type.
    public static func invalidParams(_ detail: String) -> RPCError {
        RPCError(code: -32602, message: "Invalid params: \(detail)")
    }
    /// `unauthorized` (1): a missing or wrong `token:` parameter, aria2's message.
    public static let unauthorized = RPCError(code: 1, message: "Unauthorized")
    /// `failed(_:)` (1): the method could not do what was asked.
    public static func failed(_ message: String) -> RPCError {
        RPCError(code: 1, message: message)
    }

    /// `notFound(_:)` (1): no task has the GID, in aria2's words.
    public static func notFound(_ id: TaskID) -> RPCError {
        failed("GID \(GID.string(for: id)) is not found")
    }

    /// `json` is the error object of an answer.
    public var json: JSONValue {
        .object(["code": .integer(code), "message": .string(message)])
    }
}
