/// `TaskStats` are the header's figures: tasks per state and the total speeds. They are
/// kept up to date row by row, so reading them costs nothing per frame.
public struct TaskStats: Sendable, Hashable {
    private var counts = Array(repeating: 0, count: TaskState.allCases.count)
    /// `downloadSpeed` is the summed speed of running downloads, in bytes per second.
    public private(set) var downloadSpeed: Int64 = 0
    /// `uploadSpeed` is the summed speed of running uploads, in bytes per second.
    public private(set) var uploadSpeed: Int64 = 0

    /// `init()` makes empty statistics.
    public init() {}

    /// `init(rows:)` counts a collection of rows from scratch.
    public init<Rows: Sequence>(rows: Rows) where Rows.Element == TaskRow {
        for row in rows { add(row) }
    }

    /// `count(_:)` is the number of tasks in `state`.
    public func count(_ state: TaskState) -> Int { counts[state.rawValue] }

    /// `total` is the number of tasks.
    public var total: Int { counts.reduce(0, +) }

    /// `add(_:)` counts a row in.
    public mutating func add(_ row: TaskRow) {
        counts[row.state.rawValue] += 1
        guard row.state == .running else { return }
        switch row.kind {
        case .download: downloadSpeed += max(0, row.speed)
        case .upload: uploadSpeed += max(0, row.speed)
        }
    }

    /// `remove(_:)` counts a row out; it must have been added before.
    public mutating func remove(_ row: TaskRow) {
        counts[row.state.rawValue] -= 1
        guard row.state == .running else { return }
        switch row.kind {
        case .download: downloadSpeed -= max(0, row.speed)
        case .upload: uploadSpeed -= max(0, row.speed)
        }
    }
}
