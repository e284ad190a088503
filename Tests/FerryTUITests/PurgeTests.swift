import FerryQueue
import FerryTestSupport
import Foundation
import Testing
@testable import FerryTUI

/// `X` removes the done or the failed tasks after a question.
@Suite struct PurgeTests {
    static let rows = [
        Fixtures.row(1, "a.iso", .done, total: 10), Fixtures.row(2, "b.iso", .failed),
        Fixtures.row(3, "c.iso", .done, total: 10), Fixtures.row(4, "d.iso", .queued),
    ]

    @Test func theQuestionCountsTheTasksAndEachAnswerPurgesOneState() {
        var state = Fixtures.state(width: 70, height: 16, rows: Self.rows)
        Fixtures.press([.character("X")], in: &state)
        #expect(state.mode == .confirmPurge(PurgeQuestion(done: 2, failed: 1)))
        let lines = Fixtures.render(state)
        #expect(lines.contains { $0.contains("2 done, 1 failed. Remove which from the list?") })
        #expect(lines.contains { $0.contains("y Remove done  f Remove failed  n Cancel") })
        #expect(Fixtures.press([.character("y")], in: &state) == [.perform(.purge([.done]))])
        #expect(state.mode == .list)
        Fixtures.press([.character("X")], in: &state)
        #expect(Fixtures.press([.character("f")], in: &state) == [.perform(.purge([.failed]))])
        Fixtures.press([.character("X")], in: &state)
        #expect(Fixtures.press([.character("n")], in: &state).isEmpty)
        #expect(state.mode == .list)
    }

    @Test func anAnswerWithNothingToRemoveIsNotOfferedNorTaken() {
        var state = Fixtures.state(width: 70, height: 16, rows: [Fixtures.row(1, "a.iso", .done, total: 10)])
        Fixtures.press([.character("X")], in: &state)
        #expect(!Fixtures.render(state).contains { $0.contains("Remove failed") })
        #expect(Fixtures.press([.character("f")], in: &state).isEmpty)
        #expect(state.mode == .confirmPurge(PurgeQuestion(done: 1, failed: 0)))

        var empty = Fixtures.state(rows: [Fixtures.row(1, "q.iso")])
        Fixtures.press([.character("X")], in: &empty)
        #expect(empty.mode == .list)
        #expect(empty.message == StatusMessage("No done or failed tasks to remove"))
    }

    @Test func theControllerRemovesOnlyTheTasksInThatStateAndKeepsFiles() throws {
        // Given a journal with a done, a failed and a queued download, the done one's file on disk
        let harness = try ControllerHarness { journal, directory in
            for name in ["done.bin", "failed.bin", "queued.bin"] {
                let id = try journal.insert(ControllerHarness.download("http://127.0.0.1:9/\(name)", in: directory.path))
                if name == "queued.bin" { continue }
                try journal.updateState(id, to: .running)
                try journal.updateState(id, to: name == "done.bin" ? .done : .failed)
            }
            try Data("x".utf8).write(to: directory.file("done.bin"))
        }
        #expect(harness.waitUntil { $0.state.listCount == 3 })
        // When the done tasks are purged
        harness.send(.purge([.done]))
        // Then only the done task is gone, its file kept, and the message says how many
        #expect(harness.waitUntil { $0.visibleNames == ["failed.bin", "queued.bin"] })
        #expect(harness.waitUntil { $0.state.message == StatusMessage("Removed 1 done task; files kept") })
        #expect(FileManager.default.fileExists(atPath: harness.directory.file("done.bin").path))
        // And a purge of queued tasks is refused (only finished states are purged)
        harness.send(.purge([.queued]))
        harness.settle()
        #expect(try harness.journal.tasks(limit: 10).map(\.state) == [.failed, .queued])
    }
}
