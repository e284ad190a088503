import GRDB
import Testing
@testable import FerryQueue

/// `Journal.move(_:toPlace:)` and `place(of:)`: a task put at any place of the queue order.
@Suite struct JournalPlaceTests {
    private func order(_ journal: Journal) throws -> [TaskID] {
        try journal.tasks(in: nil, limit: 1000).map(\.id)
    }

    @Test func aTaskGoesToThePlaceAskedAndTheOthersKeepTheirOrder() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try journal.insert((1...6).map { try download("https://example.com/\($0)") })
        let before = try journal.orderRevision()

        #expect(try journal.move(ids[4], toPlace: 2))
        #expect(try order(journal) == [ids[0], ids[4], ids[1], ids[2], ids[3], ids[5]])
        #expect(try journal.place(of: ids[4]) == 2)
        #expect(try journal.move(ids[0], toPlace: 5))
        #expect(try order(journal) == [ids[4], ids[1], ids[2], ids[3], ids[0], ids[5]])
        #expect(try journal.move(ids[5], toPlace: 1))
        #expect(try order(journal) == [ids[5], ids[4], ids[1], ids[2], ids[3], ids[0]])
        #expect(try journal.move(ids[5], toPlace: 99))
        #expect(try order(journal) == [ids[4], ids[1], ids[2], ids[3], ids[0], ids[5]])
        #expect(try journal.move(ids[5], toPlace: 6) == false)
        #expect(try journal.orderRevision() == before + 4)
        #expect(throws: QueueError.self) { try journal.move(TaskID(999), toPlace: 1) }
    }

    @Test func placesAcrossPrioritiesTakeTheBandTheyLandIn() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try journal.insert((1...4).map { try download("https://example.com/\($0)") })
        try journal.setPriority(5, for: ids[3])
        #expect(try order(journal) == [ids[3], ids[0], ids[1], ids[2]])

        #expect(try journal.move(ids[2], toPlace: 1))

        #expect(try order(journal) == [ids[2], ids[3], ids[0], ids[1]])
        #expect(try journal.task(ids[2])?.priority == 5)
    }
}
