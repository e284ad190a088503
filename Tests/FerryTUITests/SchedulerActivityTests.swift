import FerryKit
import FerryQueue
import Testing
@testable import FerryTUI

/// `SchedulerActivity` reports a scheduler's events to the controller unchanged.
struct SchedulerActivityTests {
    @Test func eachSchedulerEventBecomesTheSameActivityEvent() {
        // Given one scheduler event of each kind
        let id = TaskID(7)
        let progress = TransferProgress(receivedBytes: 300, expectedReceivedBytes: 1200, bytesPerSecond: 100)
        // When each is mapped
        let started = SchedulerActivity.activityEvent(.started(id))
        let moved = SchedulerActivity.activityEvent(.progress(id, progress))
        let ended = SchedulerActivity.activityEvent(.ended(id, .failed, error: "HTTP 500"))
        let changed = SchedulerActivity.activityEvent(.journalChanged)
        // Then each says the same thing about the same task
        guard case .started(id) = started else { Issue.record("\(started)"); return }
        guard case .progress(id, let shown) = moved, shown.receivedBytes == 300, shown.expectedReceivedBytes == 1200,
              shown.bytesPerSecond == 100 else { Issue.record("\(moved)"); return }
        guard case .ended(id, .failed, error: "HTTP 500") = ended else { Issue.record("\(ended)"); return }
        guard case .journalChanged = changed else { Issue.record("\(changed)"); return }
    }
}
