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

    /// `sorted(_:)` returns the rows' ids in this order; ties fall back to queue order.
    public func sorted(_ rows: [TaskRow]) -> [TaskRow.ID] {
        switch self {
        case .queue:
            return rows.sorted(by: Self.inQueueOrder).map(\.id)
        case .name:
            let keyed = rows.map { (key: $0.name.lowercased(), row: $0) }
            return keyed.sorted { a, b in
                a.key != b.key ? a.key < b.key : Self.inQueueOrder(a.row, b.row)
            }.map(\.row.id)
        case .progress:
            return rows.sorted { a, b in
                let fa = a.fraction ?? -1, fb = b.fraction ?? -1
                return fa != fb ? fa > fb : Self.inQueueOrder(a, b)
            }.map(\.id)
        case .speed:
            return rows.sorted { a, b in
                a.speed != b.speed ? a.speed > b.speed : Self.inQueueOrder(a, b)
            }.map(\.id)
        case .state:
            return rows.sorted { a, b in
                let ra = Self.stateRank(a.state), rb = Self.stateRank(b.state)
                return ra != rb ? ra < rb : Self.inQueueOrder(a, b)
            }.map(\.id)
        }
    }

    /// `dependsOnProgress` is true when progress updates can change the order.
    public var dependsOnProgress: Bool { self == .progress || self == .speed }

    private static func inQueueOrder(_ a: TaskRow, _ b: TaskRow) -> Bool {
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
