import FerryQueue

/// `SortOrder` is the order of the task table; `s` cycles through the cases in order.
public enum SortOrder: Sendable, Hashable, CaseIterable {
    /// Queue order (`TaskRow.priority` descending, then `position`, then id). The default.
    case queue
    /// `name`: name, case-insensitive.
    case name
    /// `progress`: most complete first; unknown sizes last.
    case progress
    /// `speed`: fastest first.
    case speed
    /// `state`: running, queued, paused, failed, cancelled, done; queue order within a state.
    case state

    /// `label` names the order in the table's title row.
    public var label: String {
        switch self {
        case .queue: "queue"
        case .name: "name"
        case .progress: "progress"
        case .speed: "speed"
        case .state: "state"
        }
    }

    /// `next` is the order that follows this one, wrapping around.
    public var next: SortOrder {
        let all = SortOrder.allCases
        let index = all.firstIndex(of: self) ?? 0
        return all[(index + 1) % all.count]
    }

    /// `sorted(_:)` returns the tasks' ids in this order; ties fall back to queue order. Only
    /// the small keys are sorted, never rows (a queue may hold 100,000 tasks).
    public func sorted(_ keys: [TaskKey]) -> [TaskRow.ID] {
        var keys = keys
        switch self {
        case .queue:
            keys.sort(by: Self.queueOrder)
        case .name:
            keys.sort { a, b in a.name != b.name ? a.name < b.name : Self.queueOrder(a, b) }
        case .progress:
            keys.sort { a, b in
                let x = a.fraction ?? -1, y = b.fraction ?? -1
                return x != y ? x > y : Self.queueOrder(a, b)
            }
        case .speed:
            keys.sort { a, b in a.speed != b.speed ? a.speed > b.speed : Self.queueOrder(a, b) }
        case .state:
            keys.sort { a, b in
                let x = Self.stateRank(a.state), y = Self.stateRank(b.state)
                return x != y ? x < y : Self.queueOrder(a, b)
            }
        }
        return keys.map(\.id)
    }

    /// `queueOrder(_:_:)` is queue order: priority descending, then position, then id.
    static func queueOrder(_ a: TaskKey, _ b: TaskKey) -> Bool {
        if a.priority != b.priority { return a.priority > b.priority }
        return a.position != b.position ? a.position < b.position : a.id < b.id
    }

    private static func stateRank(_ state: TaskState) -> Int {
        switch state {
        case .running: 0
        case .queued: 1
        case .paused: 2
        case .failed: 3
        case .cancelled: 4
        case .done: 5
        }
    }
}
