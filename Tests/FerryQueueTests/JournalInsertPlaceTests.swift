import GRDB
import Testing
@testable import FerryQueue

/// `Journal.insert(_:atPlaceOf:among:)`: a new task put at the place of a waiting task in the
/// transaction that stores it, the same as storing it and then moving it there.
@Suite struct JournalInsertPlaceTests {
    private static let waiting: Set<TaskState> = [.queued, .paused]

    /// `Queue` is a journal holding six tasks: the third done, the fourth paused, the fifth
    /// with priority 5 (so first in order).
    private struct Queue {
        let temp: TemporaryDirectory
        let journal: Journal
        let ids: [TaskID]

        init() throws {
            temp = try TemporaryDirectory()
            journal = try openJournal(in: temp)
            ids = try journal.insert((1...6).map { try download("https://example.com/\($0)") })
            try journal.updateState(ids[2], to: .running)
            try journal.updateState(ids[2], to: .done)
            try journal.updateState(ids[3], to: .paused)
            try journal.setPriority(5, for: ids[4])
        }

        /// `places()` is every task's id, priority and position, in queue order.
        func places() throws -> [[Int64]] {
            try journal.tasks(in: nil, limit: 100).map { [$0.id.rawValue, Int64($0.priority), $0.position] }
        }
    }

    @Test(arguments: [0, 1, 2, 4, 5, 99])
    func theTaskLandsWhereInsertingThenMovingPutsIt(offset: Int) throws {
        // Given two equal queues.
        let one = try Queue()
        let two = try Queue()
        let task = try download("https://example.com/new")
        let revision = try one.journal.revision()
        let orderRevision = try one.journal.orderRevision()

        // When the first stores a task at the place of the waiting task at `offset` in one call,
        // and the second stores it at the end and then moves it there.
        let id = try one.journal.insert(task, atPlaceOf: offset, among: Self.waiting)
        let other = try two.journal.insert(task)
        let target = try two.journal.tasks(in: Self.waiting, limit: 1, offset: offset).first
        var moved = false
        if let target, target.id != other {
            moved = try two.journal.move(other, toPlace: try two.journal.place(of: target.id))
        }

        // Then both queues are the same, in order, priorities and positions.
        #expect(id == other)
        #expect(try one.places() == two.places())
        // And the one call was one change of the journal, and a change of order when it moved the task.
        #expect(try one.journal.revision() == revision + 1)
        #expect(try one.journal.orderRevision() == orderRevision + (moved ? 1 : 0))
    }

    @Test func aTaskOfAHigherPriorityMovesDownToThePlaceAsked() throws {
        // Given a queue and a new task of priority 9 (first in order when stored at the end).
        let queue = try Queue()
        let task = try download("https://example.com/new", priority: 9)

        // When it is stored at the place of the third waiting task.
        let id = try queue.journal.insert(task, atPlaceOf: 2, among: Self.waiting)

        // Then it is third among the waiting tasks, with that place's priority band.
        let waiting = try queue.journal.tasks(in: Self.waiting, limit: 100).map(\.id)
        #expect(waiting == [queue.ids[4], queue.ids[0], id, queue.ids[1], queue.ids[3], queue.ids[5]])
        #expect(try queue.journal.task(id)?.priority == 0)
    }

    @Test func aTaskWithoutAURLIsNotStored() throws {
        let queue = try Queue()
        let before = try queue.places()
        #expect(throws: QueueError.self) {
            try queue.journal.insert(NewTask(spec: TaskSpec(urls: [])), atPlaceOf: 0, among: Self.waiting)
        }
        #expect(try queue.places() == before)
    }
}
