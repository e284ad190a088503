import GRDB
import Testing
@testable import FerryQueue

@Suite struct JournalOrderTests {
    /// `order(_:)` is the whole queue's ids in queue order.
    private func order(_ journal: Journal, _ states: Set<TaskState>? = nil) throws -> [TaskID] {
        try journal.tasks(in: states, limit: 1000).map(\.id)
    }

    private func fiveTasks(_ journal: Journal) throws -> [TaskID] {
        try journal.insert((1...5).map { try download("https://example.com/\($0)") })
    }

    @Test func upAndDownSwapNeighbours() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try fiveTasks(journal)

        #expect(try journal.move(ids[2], .up))
        #expect(try order(journal) == [ids[0], ids[2], ids[1], ids[3], ids[4]])
        #expect(try journal.move(ids[0], .down))
        #expect(try order(journal) == [ids[2], ids[0], ids[1], ids[3], ids[4]])
        #expect(try journal.move(ids[2], .up) == false)
        #expect(try journal.move(ids[4], .down) == false)
    }

    @Test func toTopAndToBottom() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try fiveTasks(journal)

        #expect(try journal.move(ids[3], .toTop))
        #expect(try order(journal) == [ids[3], ids[0], ids[1], ids[2], ids[4]])
        #expect(try journal.move(ids[3], .toTop) == false)
        #expect(try journal.move(ids[0], .toBottom))
        #expect(try order(journal) == [ids[3], ids[1], ids[2], ids[4], ids[0]])

        // New tasks still go to the end
        let late = try journal.insert(download("https://example.com/late"))
        #expect(try order(journal).last == late)
    }

    @Test func movesAcrossPriorityBandsAreOneRow() throws {
        // Given [h1 h2] at priority 5, then [a b] at priority 0
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try journal.insert([
            download("https://example.com/a"), download("https://example.com/b"),
            download("https://example.com/h1", priority: 5), download("https://example.com/h2", priority: 5),
        ])
        let (a, b, h1, h2) = (ids[0], ids[1], ids[2], ids[3])
        #expect(try order(journal) == [h1, h2, a, b])

        // When a moves up past h2, it joins priority 5 just before it
        #expect(try journal.move(a, .up))
        #expect(try order(journal) == [h1, a, h2, b])
        #expect(try journal.task(a)?.priority == 5)

        // When h2 moves down past b, it joins priority 0 just after it
        #expect(try journal.move(h2, .down))
        #expect(try order(journal) == [h1, a, b, h2])
        #expect(try journal.task(h2)?.priority == 0)

        // And to the top / bottom take the end task's priority
        #expect(try journal.move(h2, .toTop))
        #expect(try order(journal) == [h2, h1, a, b])
        #expect(try journal.move(h1, .toBottom))
        #expect(try order(journal) == [h2, a, b, h1])
    }

    @Test func movesWithinAFilteredViewSkipHiddenTasks() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try fiveTasks(journal)
        try journal.updateState(ids[1], to: .running)
        try journal.updateState(ids[1], to: .done)

        #expect(try journal.move(ids[2], .up, among: [.queued]))

        #expect(try order(journal, [.queued]) == [ids[2], ids[0], ids[3], ids[4]])
        #expect(try journal.nextRunnable(limit: 1).map(\.id) == [ids[2]])
    }

    @Test func setPriorityMovesBetweenBands() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try fiveTasks(journal)

        try journal.setPriority(1, for: ids[4])

        #expect(try order(journal).first == ids[4])
        #expect(throws: QueueError.journal(.taskNotFound(TaskID(99)))) {
            try journal.setPriority(1, for: TaskID(99))
        }
    }

    @Test func pagesCoverTheQueueOnceInOrder() throws {
        // Given 1,000 tasks across two priorities and three states
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let tasks: [NewTask] = try (0..<1000).map { (index: Int) throws -> NewTask in
            try download("https://example.com/\(index)", priority: index % 3 == 0 ? 1 : 0, paused: index % 5 == 0)
        }
        let ids = try journal.insert(tasks)
        let expected = try journal.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM task ORDER BY priority DESC, position").map { TaskID($0) }
        }

        // When read in pages of 64
        var paged: [TaskID] = []
        var offset = 0
        while true {
            let page = try journal.tasks(limit: 64, offset: offset)
            if page.isEmpty { break }
            #expect(page.count <= 64)
            paged += page.map(\.id)
            offset += page.count
        }

        // Then every task shows once, in queue order, with its children loaded
        #expect(paged == expected)
        #expect(Set(paged) == Set(ids))
        let pausedPage = try journal.tasks(in: [.paused], limit: 500)
        #expect(pausedPage.count == 200)
        #expect(pausedPage.allSatisfy { $0.state == .paused && $0.spec.urls.count == 1 })
        #expect(try journal.tasks(in: [], limit: 10).isEmpty)
    }
}

@Suite struct JournalChildRowTests {
    /// `spec(_:)` is a download with two mirrors and two headers, all naming task `n`.
    private func spec(_ n: Int) throws -> NewTask {
        NewTask(spec: TaskSpec(
            urls: [try TransferURL(validating: "https://a.example/\(n)"), try TransferURL(validating: "https://b.example/\(n)")],
            headers: [try HeaderField(parsing: "X-Task: \(n)"), try HeaderField(parsing: "X-Second: \(n)")]))
    }

    private func expectOwnChildren(_ records: [TaskRecord], numbered numbers: [Int]) {
        #expect(records.count == numbers.count)
        for (record, n) in zip(records, numbers) {
            #expect(record.spec.urls.map(\.string) == ["https://a.example/\(n)", "https://b.example/\(n)"])
            #expect(record.spec.headers.map(\.name) == ["X-Task", "X-Second"])
            #expect(record.spec.headers.map(\.value) == ["\(n)", "\(n)"])
        }
    }

    @Test func tasksCloseTogetherGetTheirOwnMirrorsAndHeadersOnly() throws {
        // Given 12 tasks, every other one paused: the queued ones lie close together, with the
        // paused ones' child rows in between
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try journal.insert((0..<12).map(spec))
        let paused = ids.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        #expect(try journal.updateStates(paused, to: .paused).count == 6)

        // When the runnable tasks are read
        let records = try journal.nextRunnable(limit: 64)

        // Then each has exactly its own mirrors and headers, in order
        #expect(records.map(\.id) == ids.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
        expectOwnChildren(records, numbered: [0, 2, 4, 6, 8, 10])
    }

    @Test func tasksFarApartGetTheirOwnMirrorsAndHeaders() throws {
        // Given 200 tasks of which only the first, one in the middle and the last are queued
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try journal.insert((0..<200).map(spec))
        let kept: Set<Int> = [0, 97, 199]
        let paused = ids.enumerated().filter { !kept.contains($0.offset) }.map(\.element)
        #expect(try journal.updateStates(paused, to: .paused).count == 197)

        // When the runnable tasks are read
        let records = try journal.nextRunnable(limit: 64)

        // Then each has exactly its own mirrors and headers
        #expect(records.map(\.id) == [ids[0], ids[97], ids[199]])
        expectOwnChildren(records, numbered: [0, 97, 199])
    }
}
