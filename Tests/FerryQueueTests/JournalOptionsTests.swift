import Foundation
import Testing
@testable import FerryQueue

/// `Journal.setMaxDownloadLimit(_:for:)`: a task's own cap changed after it was queued.
@Suite struct JournalOptionsTests {
    @Test func aTasksCapIsChangedAndClearedAndTheRevisionMoves() throws {
        // Given a queued task without a cap.
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let id = try journal.insert(download("http://example.com/a"))
        let before = try journal.revision()

        // When its cap is set, then cleared with 0...
        try journal.setMaxDownloadLimit(100 << 10, for: id)
        let capped = try journal.task(id)?.spec.options.maxDownloadLimit
        try journal.setMaxDownloadLimit(0, for: id)

        // Then each change is recorded, and other processes can notice it.
        #expect(capped == 100 << 10)
        #expect(try journal.task(id)?.spec.options.maxDownloadLimit == nil)
        #expect(try journal.revision() > before)
        #expect(throws: QueueError.self) { try journal.setMaxDownloadLimit(1, for: TaskID(999)) }
    }
}
