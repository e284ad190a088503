import Testing
@testable import FerryQueue

/// `Journal.page` reads the queue after the last place seen in two index ranges (the rest of
/// that priority, then the lower ones): every task comes once, in queue order, whatever the
/// page size and however the priorities fall across page boundaries.
@Suite struct JournalPagingTests {
    @Test(arguments: [1, 2, 3, 7, 100])
    func everyTaskComesOnceInQueueOrderAcrossPriorities(pageSize: Int) throws {
        // Given tasks of several priorities, added interleaved, some paused.
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let priorities = [0, 5, -3, 5, 0, 0, 9, -3, 5, 1, 0, 9, -3, 2]
        try journal.insert(priorities.enumerated().map { index, priority in
            try download("https://example.com/\(index)", priority: priority, paused: index % 4 == 0)
        })
        let expected = try journal.tasks(limit: 100).map(\.id)

        // When the queue is read page by page, whole and by state.
        var all: [TaskID] = []
        try journal.forEachTask(pageSize: pageSize) { all.append($0.id) }
        var queued: [TaskID] = []
        try journal.forEachTask(in: [.queued], pageSize: pageSize) { queued.append($0.id) }
        var runnable: [TaskID] = []
        while true {
            let next = try journal.nextRunnable(limit: pageSize, excluding: Set(runnable))
            guard !next.isEmpty else { break }
            runnable += next.map(\.id)
        }

        // Then each read gives every task once, in queue order (priority, then position).
        #expect(all == expected)
        let queuedExpected = try journal.tasks(in: [.queued], limit: 100).map(\.id)
        #expect(queued == queuedExpected)
        #expect(runnable == queuedExpected)
        #expect(Set(all).count == priorities.count)
    }
}
