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

    @Test func aPageIsReadAgainOnlyWhenItsMarksChanged() throws {
        // Given a page of waiting tasks read once with its marks.
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try journal.insert((0..<5).map { try download("https://example.com/\($0)") })
        let waiting: Set<TaskState> = [.queued, .paused]
        let first = try journal.tasks(in: waiting, limit: 3, offset: 1, unlessMarked: nil)
        #expect(first.records?.map(\.id) == Array(ids[1...3]))

        // When nothing changed, then the page is not read again.
        #expect(try journal.tasks(in: waiting, limit: 3, offset: 1, unlessMarked: first.marks).records == nil)

        // When a task of the page gets a checkpoint (which does not move the revision), or
        // one changes state, then the page is read again, as `tasks(in:limit:offset:)` reads it.
        try journal.recordCheckpoint(ids[2], ResumeRecord(totalLength: 100, durableOffset: 10))
        let checkpointed = try journal.tasks(in: waiting, limit: 3, offset: 1, unlessMarked: first.marks)
        #expect(checkpointed.records?.map(\.resume.durableOffset) == [0, 10, 0])
        try journal.updateState(ids[3], to: .paused)
        let paused = try journal.tasks(in: waiting, limit: 3, offset: 1, unlessMarked: checkpointed.marks)
        #expect(paused.records?.map(\.state) == [.queued, .queued, .paused])
        #expect(paused.records?.map(\.id) == (try journal.tasks(in: waiting, limit: 3, offset: 1)).map(\.id))
        #expect(try journal.tasks(in: waiting, limit: 3, offset: 1, unlessMarked: paused.marks).records == nil)
    }

    @Test func theStateSummaryCountsAsCountsByStateAndNamesTheRunningTasks() throws {
        // Given tasks in every state.
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try journal.insert((0..<9).map { try download("https://example.com/\($0)", paused: $0 == 8) })
        for (index, states) in [[TaskState.running], [.running], [.running, .done], [.running, .failed], [.cancelled]].enumerated() {
            for state in states {
                try journal.updateState(ids[index], to: state)
            }
        }

        // When they are summed up.
        let summary = try journal.stateSummary()

        // Then the counts are those of countsByState, and the running tasks are named.
        #expect(summary.counts == (try journal.countsByState()))
        #expect(summary.counts[.queued] == 3 && summary.counts[.running] == 2 && summary.counts[.paused] == 1)
        #expect(Set(summary.running) == [ids[0], ids[1]])
    }
}
