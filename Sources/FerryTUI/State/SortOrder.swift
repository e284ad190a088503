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

    /// `sorted(_:)` returns the rows' ids in this order; ties fall back to queue order. Only
    /// small sort keys are copied and moved, never the rows (a queue may hold 100,000).
    public func sorted(_ rows: some Sequence<TaskRow>) -> [TaskRow.ID] {
        switch self {
        case .queue:
            return rows.map(QueueKey.init).sorted().map(\.id)
        case .name:
            let keyed = rows.map { (name: $0.name.lowercased(), place: QueueKey($0)) }
            return keyed.sorted { a, b in a.name != b.name ? a.name < b.name : a.place < b.place }.map(\.place.id)
        case .progress:
            let keyed = rows.map { (fraction: $0.fraction ?? -1, place: QueueKey($0)) }
            return keyed.sorted { a, b in a.fraction != b.fraction ? a.fraction > b.fraction : a.place < b.place }.map(\.place.id)
        case .speed:
            let keyed = rows.map { (speed: $0.speed, place: QueueKey($0)) }
            return keyed.sorted { a, b in a.speed != b.speed ? a.speed > b.speed : a.place < b.place }.map(\.place.id)
        case .state:
            let keyed = rows.map { (rank: Self.stateRank($0.state), place: QueueKey($0)) }
            return keyed.sorted { a, b in a.rank != b.rank ? a.rank < b.rank : a.place < b.place }.map(\.place.id)
        }
    }

    /// `dependsOnProgress` is true when progress updates can change the order.
    public var dependsOnProgress: Bool { self == .progress || self == .speed }

    /// `QueueKey` is a row's place in queue order: priority descending, then position, then id.
    private struct QueueKey: Comparable {
        let priority: Int
        let position: Int
        let id: TaskRow.ID

        init(_ row: TaskRow) {
            priority = row.priority
            position = row.position
            id = row.id
        }

        static func < (a: QueueKey, b: QueueKey) -> Bool {
            if a.priority != b.priority { return a.priority > b.priority }
            return a.position != b.position ? a.position < b.position : a.id < b.id
        }
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
