import GRDB

extension Journal {
    /// `move(_:_:among:)` moves a task in the queue order and returns `false` when it was
    /// already at that end (nothing changed).
    ///
    /// The order is priority descending, then position. Moving past a task of another
    /// priority takes that task's priority, so the move is always one visible row (for
    /// `.up`, the neighbour then goes to the end of its priority band; for `.down`, to its
    /// start). `states` restricts the neighbours to a filtered view, for example the queued
    /// tasks the user sees; `nil` by default (every task). Throws `.journal(.taskNotFound)`.
    @discardableResult
    public func move(_ id: TaskID, _ move: Reordering, among states: Set<TaskState>? = nil) throws(QueueError) -> Bool {
        try write { db in
            guard let me = try Place.fetch(db, sql: "WHERE id = ?", [id.rawValue]) else {
                throw QueueError.journal(.taskNotFound(id))
            }
            let (filter, filterArguments) = Journal.stateFilter(states)
            let view = filter.isEmpty ? "WHERE id <> ?" : "\(filter) AND id <> ?"
            let viewArguments = filterArguments + [id.rawValue]
            func neighbour(_ condition: String, _ order: String, _ arguments: StatementArguments) throws -> Place? {
                try Place.fetch(db, sql: "\(view) AND \(condition) ORDER BY \(order) LIMIT 1", viewArguments + arguments)
            }
            let moved: Bool
            switch move {
            case .up:
                if let before = try neighbour("priority = ? AND position < ?", "position DESC", [me.priority, me.position]) {
                    try swap(db, me, before)
                    moved = true
                } else if let before = try neighbour("priority > ?", "priority ASC, position DESC", [me.priority]) {
                    // `before` is last in its band: take its slot, send it past everything.
                    let highest = try JournalMeta.value(db, .highestPosition) + 1
                    try place(db, before.id, priority: before.priority, position: highest)
                    try place(db, me.id, priority: before.priority, position: before.position)
                    try JournalMeta.set(db, .highestPosition, to: highest)
                    moved = true
                } else {
                    moved = false
                }
            case .down:
                if let after = try neighbour("priority = ? AND position > ?", "position ASC", [me.priority, me.position]) {
                    try swap(db, me, after)
                    moved = true
                } else if let after = try neighbour("priority < ?", "priority DESC, position ASC", [me.priority]) {
                    // `after` is first in its band: take its slot, send it before everything.
                    let lowest = try JournalMeta.value(db, .lowestPosition) - 1
                    try place(db, after.id, priority: after.priority, position: lowest)
                    try place(db, me.id, priority: after.priority, position: after.position)
                    try JournalMeta.set(db, .lowestPosition, to: lowest)
                    moved = true
                } else {
                    moved = false
                }
            case .toTop:
                if let first = try neighbour("1", "priority DESC, position ASC", []),
                   first.priority > me.priority || (first.priority == me.priority && first.position < me.position) {
                    let lowest = try JournalMeta.value(db, .lowestPosition) - 1
                    try place(db, me.id, priority: first.priority, position: lowest)
                    try JournalMeta.set(db, .lowestPosition, to: lowest)
                    moved = true
                } else {
                    moved = false
                }
            case .toBottom:
                if let last = try neighbour("1", "priority ASC, position DESC", []),
                   last.priority < me.priority || (last.priority == me.priority && last.position > me.position) {
                    let highest = try JournalMeta.value(db, .highestPosition) + 1
                    try place(db, me.id, priority: last.priority, position: highest)
                    try JournalMeta.set(db, .highestPosition, to: highest)
                    moved = true
                } else {
                    moved = false
                }
            }
            if moved {
                try JournalMeta.bumpRevision(db)
            }
            return moved
        }
    }

    /// `setPriority(_:for:)` changes a task's priority; it keeps its position, so it lands
    /// in the new band where its insertion order puts it. Throws `.journal(.taskNotFound)`.
    public func setPriority(_ priority: Int, for id: TaskID) throws(QueueError) {
        try update(id, sql: "priority = ?", [priority])
    }

    private func swap(_ db: Database, _ first: Place, _ second: Place) throws {
        try place(db, first.id, priority: first.priority, position: second.position)
        try place(db, second.id, priority: second.priority, position: first.position)
    }

    private func place(_ db: Database, _ id: Int64, priority: Int, position: Int64) throws {
        try db.execute(
            sql: "UPDATE task SET priority = ?, position = ?, updated_at = ? WHERE id = ?",
            arguments: [priority, position, timestamp(), id])
    }
}

/// `Place` is a task's spot in the queue order.
private struct Place {
    let id: Int64
    let priority: Int
    let position: Int64

    static func fetch(_ db: Database, sql clause: String, _ arguments: StatementArguments) throws -> Place? {
        try Row.fetchOne(db, sql: "SELECT id, priority, position FROM task \(clause)", arguments: arguments).map {
            Place(id: $0["id"], priority: $0["priority"], position: $0["position"])
        }
    }
}
