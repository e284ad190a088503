/// `TaskQuery` says which tasks the table lists and in what order: the tasks that pass
/// `filter` (a `TaskFilter`: name text, `state:` and `host:` terms; empty for all), in `sortOrder`.
public struct TaskQuery: Sendable, Hashable {
    /// `filter` is the filter as typed (see `TaskFilter`); empty shows everything. Empty by default.
    public var filter: String
    /// `sortOrder` is the table's order. `.queue` by default.
    public var sortOrder: SortOrder

    /// `init(filter:sortOrder:)` makes a query.
    public init(filter: String = "", sortOrder: SortOrder = .queue) {
        self.filter = filter
        self.sortOrder = sortOrder
    }

    /// `needsNames` is true when the query looks at names or hosts (a filter with text or
    /// `host:`, or the name order).
    public var needsNames: Bool { TaskFilter(filter).needsNames || sortOrder == .name }
}

/// `TaskViewRequest` is what the front end asks its controller to show: the rows
/// `offset ..< offset + limit` of the tasks `query` lists, and where the task `anchor` (the
/// selected one) stands in that list now, so the selection can follow it.
public struct TaskViewRequest: Sendable, Hashable {
    /// `query` chooses and orders the tasks.
    public var query: TaskQuery
    /// `offset` is the index of the first row wanted.
    public var offset: Int
    /// `limit` is the number of rows wanted.
    public var limit: Int
    /// `anchor` is the selected task, `nil` when none.
    public var anchor: TaskRow.ID?

    /// `init(query:offset:limit:anchor:)` makes a request.
    public init(query: TaskQuery = TaskQuery(), offset: Int = 0, limit: Int, anchor: TaskRow.ID? = nil) {
        self.query = query
        self.offset = max(0, offset)
        self.limit = max(0, limit)
        self.anchor = anchor
    }

    /// `first` is what a controller shows before the front end asked for anything: the
    /// first rows in queue order.
    public static let first = TaskViewRequest(limit: 100)
}

/// `TaskWindow` is the controller's answer to a `TaskViewRequest`: how many tasks the query
/// lists, a slice of them as rows, and the whole queue's figures.
public struct TaskWindow: Sendable, Hashable {
    /// `request` is the request answered (the latest one the controller received).
    public var request: TaskViewRequest
    /// `total` is the number of tasks the query lists.
    public var total: Int
    /// `offset` is the index of `rows[0]` in the list.
    public var offset: Int
    /// `rows` are consecutive rows of the list starting at `offset`.
    public var rows: [TaskRow]
    /// `anchorIndex` is the index of the request's anchor in the list, `nil` when it is not listed.
    public var anchorIndex: Int?
    /// `stats` are the figures of the whole queue (not only of the listed tasks).
    public var stats: TaskStats

    /// `init(request:total:offset:rows:anchorIndex:stats:)` makes a window.
    public init(request: TaskViewRequest, total: Int, offset: Int, rows: [TaskRow], anchorIndex: Int?, stats: TaskStats) {
        self.request = request
        self.total = total
        self.offset = offset
        self.rows = rows
        self.anchorIndex = anchorIndex
        self.stats = stats
    }

    /// `range` are the indices the window holds rows for.
    public var range: Range<Int> { offset..<(offset + rows.count) }

    /// `row(at:)` is the row at `index` of the list, `nil` outside the window.
    public func row(at index: Int) -> TaskRow? {
        range.contains(index) ? rows[index - offset] : nil
    }
}
