import FerryQueue

/// `TaskStats` are the header's figures: tasks per state and the total speeds. The
/// controller counts them while it reads the queue and sends them with its answers.
public struct TaskStats: Sendable, Hashable {
    private var counts = Array(repeating: 0, count: TaskState.allCases.count)
    /// `downloadSpeed` is the summed speed of running downloads, in bytes per second.
    public private(set) var downloadSpeed: Int64 = 0
    /// `uploadSpeed` is the summed speed of running uploads, in bytes per second.
    public private(set) var uploadSpeed: Int64 = 0
    /// `limits` are the engine's concurrency limits, `nil` until it told them.
    public var limits: TransferLimits?

    /// `init()` makes empty statistics.
    public init() {}

    /// `init(rows:)` counts a collection of rows from scratch.
    public init<Rows: Sequence>(rows: Rows) where Rows.Element == TaskRow {
        for row in rows { add(row) }
    }

    /// `count(_:)` is the number of tasks in `state`.
    public func count(_ state: TaskState) -> Int { counts[state.index] }

    /// `total` is the number of tasks.
    public var total: Int { counts.reduce(0, +) }

    /// `add(_:)` counts a row in.
    public mutating func add(_ row: TaskRow) {
        add(row.state, kind: row.kind, speed: row.speed)
    }

    /// `add(_:kind:speed:)` counts a task in `state` in; a running task's speed goes to the
    /// total of its kind.
    public mutating func add(_ state: TaskState, kind: TaskKind, speed: Int64 = 0) {
        counts[state.index] += 1
        if state == .running { addSpeed(max(0, speed), of: kind) }
    }

    /// `addSpeed(_:of:)` adds a running task's speed (negative: removes it) to its kind's total.
    public mutating func addSpeed(_ speed: Int64, of kind: TaskKind) {
        switch kind {
        case .download: downloadSpeed += speed
        case .upload: uploadSpeed += speed
        }
    }

    /// `move(from:to:)` counts one task out of `source` and into `target`, with no speed.
    public mutating func move(from source: TaskState, to target: TaskState) {
        counts[source.index] -= 1
        counts[target.index] += 1
    }
}
