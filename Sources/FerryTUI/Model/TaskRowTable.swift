/// `TaskRowTable` is a task list held in memory: rows by id, answering a `TaskViewRequest`
/// the way a `TaskController` does. It serves short lists, the render benchmark and tests;
/// the queue's controller reads the journal instead and keeps only the rows it shows.
public struct TaskRowTable: Sendable {
    /// `rows` are the tasks by id.
    public private(set) var rows: [TaskRow.ID: TaskRow] = [:]

    /// `init(_:)` makes a table of `rows`; a later row with the same id replaces an earlier one.
    public init(_ rows: [TaskRow] = []) {
        upsert(rows)
    }

    /// `upsert(_:)` adds rows, replacing those with the same ids.
    public mutating func upsert(_ rows: [TaskRow]) {
        for row in rows { self.rows[row.id] = row }
    }

    /// `remove(_:)` removes the tasks with these ids; unknown ids are ignored.
    public mutating func remove(_ ids: [TaskRow.ID]) {
        for id in ids { rows[id] = nil }
    }

    /// `stats` are the figures of every row.
    public var stats: TaskStats { TaskStats(rows: rows.values) }

    /// `order(_:)` is the ids `query` lists, in its order.
    public func order(_ query: TaskQuery) -> [TaskRow.ID] {
        let filter = TaskFilter(query.filter)
        let keys = rows.values.lazy.filter { filter.matches(name: $0.name, state: $0.state, url: $0.urls.first) }.map(TaskKey.init)
        return query.sortOrder.sorted(Array(keys))
    }

    /// `window(for:)` answers `request`: the rows it asks for (fewer at the end of the list).
    public func window(for request: TaskViewRequest) -> TaskWindow {
        let order = order(request.query)
        let offset = min(request.offset, order.count)
        let slice = order[offset..<min(order.count, offset + request.limit)]
        return TaskWindow(
            request: request,
            total: order.count,
            offset: offset,
            rows: slice.compactMap { rows[$0] },
            anchorIndex: request.anchor.flatMap { order.firstIndex(of: $0) },
            stats: stats)
    }
}

extension TaskRowTable {
    /// `answer(_:in:)` answers the `show` requests among `effects` by applying this table's
    /// windows to `state` (and the requests those produce, at most 8 rounds), and returns the
    /// other effects: a front end driven by this table with no controller thread between.
    public func answer(_ effects: [TUIEffect], in state: inout TUIState) -> [TUIEffect] {
        var others: [TUIEffect] = []
        var pending = effects
        for _ in 0..<8 {
            var requests: [TaskViewRequest] = []
            for effect in pending {
                if case .show(let request) = effect { requests.append(request) } else { others.append(effect) }
            }
            guard let request = requests.last else { break }
            pending = state.apply([.window(window(for: request))])
        }
        return others
    }

    /// `load(into:)` shows this table in `state`, as a controller would after a change.
    public func load(into state: inout TUIState) {
        let request = state.lastRequest ?? .first
        _ = answer(state.apply([.window(window(for: request))]), in: &state)
    }
}
