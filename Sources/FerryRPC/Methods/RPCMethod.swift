import FerryQueue

/// `RPCMethod` is one entry of the method table: its name, whether it needs the secret, and
/// what it does.
public struct RPCMethod: Sendable {
    /// `Body` runs the method with its parameters (the token already taken off).
    public typealias Body = @Sendable (RPCCall) async throws(RPCError) -> JSONValue

    /// `name` is the method's name as clients call it (`aria2.tellStatus`).
    public let name: String
    /// `needsToken` is false only for the methods aria2 answers without the secret
    /// (`system.listMethods`, `system.listNotifications`).
    public let needsToken: Bool
    let body: Body

    /// `init(_:needsToken:_:)` makes an entry; every method needs the token by default.
    public init(_ name: String, needsToken: Bool = true, _ body: @escaping Body) {
        self.name = name
        self.needsToken = needsToken
        self.body = body
    }
}

/// `RPCCall` is one call being answered: the engine and the parameters, with typed readers
/// that turn a missing or mistyped parameter into `invalidParams`.
public struct RPCCall: Sendable {
    /// `engine` is what the method acts on.
    public let engine: RPCEngine
    /// `params` are the call's parameters, without the `token:` one.
    public let params: [JSONValue]
    /// `origin` is where the call came from (checks stricter over TCP read it).
    public var origin: RPCOrigin = .local

    /// `gid(_:)` is the task named by the GID at `index`.
    func gid(_ index: Int) throws(RPCError) -> TaskID {
        guard let text = optional(index)?.stringValue else {
            throw RPCError.invalidParams("parameter \(index + 1) must be a GID")
        }
        guard let id = GID.taskID(text) else {
            throw RPCError.failed("GID \(text.prefix(32)) is not a GID (16 hex digits)")
        }
        return id
    }

    /// `integer(_:)` is the integer at `index` (a JSON number or a string of digits).
    func integer(_ index: Int) throws(RPCError) -> Int64 {
        guard let value = optional(index)?.integerValue else {
            throw RPCError.invalidParams("parameter \(index + 1) must be an integer")
        }
        return value
    }

    /// `string(_:)` is the string at `index`.
    func string(_ index: Int) throws(RPCError) -> String {
        guard let value = optional(index)?.stringValue else {
            throw RPCError.invalidParams("parameter \(index + 1) must be a string")
        }
        return value
    }

    /// `object(_:)` is the object at `index`; an absent one is empty.
    func object(_ index: Int) throws(RPCError) -> [String: JSONValue] {
        guard let value = optional(index) else { return [:] }
        guard let members = value.objectValue else {
            throw RPCError.invalidParams("parameter \(index + 1) must be an object")
        }
        return members
    }

    /// `keys(_:)` is the key filter at `index` (a list of strings); `nil` when absent.
    func keys(_ index: Int) throws(RPCError) -> Set<String>? {
        guard let value = optional(index) else { return nil }
        if case .null = value { return nil }
        guard let list = value.arrayValue else {
            throw RPCError.invalidParams("parameter \(index + 1) must be a list of keys")
        }
        var keys: Set<String> = []
        for key in list {
            guard let name = key.stringValue else {
                throw RPCError.invalidParams("parameter \(index + 1) must be a list of keys")
            }
            keys.insert(name)
        }
        return keys
    }

    /// `optional(_:)` is the parameter at `index`, or `nil` past the end.
    func optional(_ index: Int) -> JSONValue? {
        index < params.count ? params[index] : nil
    }
}
