import FerryQueue

/// `TaskKey` is what the table's orders and filter look at in a task, without the rest of its
/// row: a controller builds one per task (a queue may hold 100,000), sorts them and keeps
/// only the ids.
public struct TaskKey: Sendable, Hashable {
    /// `id` identifies the task.
    public var id: TaskRow.ID
    /// `priority` and `position` are the task's place in the queue.
    public var priority: Int = 0
    public var position: Int
    /// `state` is the state shown.
    public var state: TaskState
    /// `name` is the lowercased name; empty unless the order needs it.
    public var name: String = ""
    /// `fraction` is the completed share, `nil` when the size is unknown.
    public var fraction: Double? = nil
    /// `speed` is the current rate in bytes per second.
    public var speed: Int64 = 0
}

extension TaskKey {
    /// `init(_:)` is the key of a row, its name lowercased.
    public init(_ row: TaskRow) {
        self.init(
            id: row.id, priority: row.priority, position: row.position, state: row.state,
            name: row.name.lowercased(), fraction: row.fraction, speed: row.speed)
    }
}
