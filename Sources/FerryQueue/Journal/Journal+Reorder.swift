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
                try JournalMeta.bumpOrderRevision(db)
            }
            return moved
        }
    }

    /// `move(_:toPlace:)` puts a task at place `target` (1 is the first) of the queue order
    /// (every task, as `ferry list` shows them; a place past the end is the last) and returns
    /// `false` when it was there already. The tasks between its old and new place each move one
    /// place towards the old one: the places are passed along in one transaction, so their set
    /// of (priority, position) pairs stays the same. Throws `.journal(.taskNotFound)`.
    @discardableResult
    public func move(_ id: TaskID, toPlace target: Int) throws(QueueError) -> Bool {
        try write { db in
            guard let me = try Place.fetch(db, sql: "WHERE id = ?", [id.rawValue]) else {
                throw QueueError.journal(.taskNotFound(id))
            }
            let current = try Journal.placeIndex(db, of: me)
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM task") ?? 0
            let wanted = min(max(1, target), max(1, count)) - 1
            guard wanted != current else { return false }
            let low = min(wanted, current)
            let rows = try Row.fetchAll(db, sql: """
                SELECT id, priority, position FROM task ORDER BY priority DESC, position ASC LIMIT ? OFFSET ?
                """, arguments: [abs(wanted - current) + 1, low]).map {
                Place(id: $0["id"], priority: $0["priority"], position: $0["position"])
            }
            // `rows` runs from the lower place to the higher; me is at one end.
            var order = rows.map(\.id)
            if wanted < current {
                order.removeLast()
                order.insert(me.id, at: 0)
            } else {
                order.removeFirst()
                order.append(me.id)
            }
            for (slot, rowID) in zip(rows, order) where slot.id != rowID {
                try place(db, rowID, priority: slot.priority, position: slot.position)
            }
            try JournalMeta.bumpRevision(db)
            try JournalMeta.bumpOrderRevision(db)
            return true
        }
    }

    /// `place(of:)` is the task's place in the queue order, 1 for the first. Throws
    /// `.journal(.taskNotFound)`.
    public func place(of id: TaskID) throws(QueueError) -> Int {
        try read { db in
            guard let me = try Place.fetch(db, sql: "WHERE id = ?", [id.rawValue]) else {
                throw QueueError.journal(.taskNotFound(id))
            }
            return try Journal.placeIndex(db, of: me) + 1
        }
    }

    /// The number of tasks before `me` in the queue order.
    private static func placeIndex(_ db: Database, of me: Place) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM task WHERE priority > ? OR (priority = ? AND position < ?)",
                         arguments: [me.priority, me.priority, me.position]) ?? 0
    }

    /// `setPriority(_:for:)` changes a task's priority; it keeps its position, so it lands
    /// in the new band where its insertion order puts it. Throws `.journal(.taskNotFound)`.
    public func setPriority(_ priority: Int, for id: TaskID) throws(QueueError) {
        try update(id, sql: "priority = ?", [priority])
        try write { db in try JournalMeta.bumpOrderRevision(db) }
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
