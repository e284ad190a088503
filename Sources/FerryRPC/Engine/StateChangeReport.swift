import FerryQueue

/// `StateChangeReport` is what a change of state asked for by id or for all tasks did:
/// how many tasks changed and, of those named, the ones left as they were (with their
/// state) and the ones that do not exist. `ferry.pause`, `ferry.resume` and `ferry.retry`
/// answer it; `ferry pause` makes the same on the journal when no daemon runs, and prints
/// either the same way.
public struct StateChangeReport: Sendable, Equatable {
    /// `changed` counts the tasks that changed state.
    public var changed: Int
    /// `left` are the named tasks that did not change, with the state they are in.
    public var left: [TaskID: TaskState]
    /// `missing` are the named tasks that do not exist.
    public var missing: Set<TaskID>

    /// `init(changed:left:missing:)` makes a report; nothing left or missing by default.
    public init(changed: Int, left: [TaskID: TaskState] = [:], missing: Set<TaskID> = []) {
        self.changed = changed
        self.left = left
        self.missing = missing
    }

    /// `make(_:named:changed:)` reports `changed` tasks and reads, for the named tasks (`nil`
    /// for all) that are not among them, their state or their absence.
    public static func make(_ journal: Journal, named: [TaskID]?, changed: Set<TaskID>) throws(QueueError) -> StateChangeReport {
        var report = StateChangeReport(changed: changed.count)
        let others = (named ?? []).filter { !changed.contains($0) }
        let states = try journal.states(of: Set(others))
        for id in others {
            if let state = states[id] { report.left[id] = state } else { report.missing.insert(id) }
        }
        return report
    }

    /// `json` is the answer: `{"changed": N, "left": {GID: state}, "missing": [GID]}`,
    /// states by Ferry's names (`queued`, `running`...).
    public var json: JSONValue {
        [
            "changed": .integer(Int64(changed)),
            "left": .object(Dictionary(uniqueKeysWithValues: left.map { (GID.string(for: $0.key), .string($0.value.rawValue)) })),
            "missing": .array(missing.sorted { $0.rawValue < $1.rawValue }.map { .string(GID.string(for: $0)) }),
        ]
    }

    /// `init(json:)` reads an answer; `nil` when it is not one.
    public init?(json: JSONValue) {
        guard let members = json.objectValue, let changed = members["changed"]?.integerValue,
              let left = members["left"]?.objectValue, let missing = members["missing"]?.arrayValue else { return nil }
        self.changed = Int(changed)
        self.left = [:]
        self.missing = []
        for (gid, state) in left {
            guard let id = GID.taskID(gid), let state = state.stringValue.flatMap(TaskState.init(rawValue:)) else { return nil }
            self.left[id] = state
        }
        for gid in missing {
            guard let id = gid.stringValue.flatMap(GID.taskID) else { return nil }
            self.missing.insert(id)
        }
    }
}
