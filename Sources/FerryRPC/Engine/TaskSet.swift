import FerryQueue

/// `TaskSet` is the tasks one of Ferry's own methods acts on: those of one GID or a list of
/// GIDs, or every task the method applies to (`"all"`).
public enum TaskSet: Sendable, Hashable {
    /// `ids` are the tasks named, in the order given.
    case ids([TaskID])
    /// `all` is every task the method applies to (`ferry pause --all`).
    case all

    /// `json` is the parameter as sent: a list of GIDs, or `"all"`.
    public var json: JSONValue {
        switch self {
        case .ids(let ids): .array(ids.map { .string(GID.string(for: $0)) })
        case .all: "all"
        }
    }

    /// `named` is the ids named, `nil` for `all`.
    public var named: [TaskID]? {
        if case .ids(let ids) = self { return ids }
        return nil
    }

    /// `init(_:)` reads the parameter: `"all"`, one GID, or a list of GIDs (each checked).
    init(_ value: JSONValue) throws(RPCError) {
        if value.stringValue == "all" {
            self = .all
            return
        }
        guard let list = value.arrayValue ?? value.stringValue.map({ [.string($0)] }) else {
            throw RPCError.invalidParams("the tasks must be a GID, a list of GIDs or \"all\"")
        }
        var ids: [TaskID] = []
        for item in list {
            guard let text = item.stringValue, let id = GID.taskID(text) else {
                throw RPCError.failed("\(item.stringValue?.prefix(32) ?? "a parameter") is not a GID (16 hex digits)")
            }
            ids.append(id)
        }
        self = .ids(ids)
    }
}
