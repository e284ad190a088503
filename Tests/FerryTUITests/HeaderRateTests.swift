import FerryKit
import FerryQueue
import Testing
@testable import FerryTUI

/// The header's rate counts the bytes of every transfer, also those of files that end between
/// two readings, and each row shows its own rate from its first bytes (the controller's clock
/// is moved by hand).
struct HeaderRateTests {
    private let kib: Int64 = 1024

    @Test func aBatchOfSmallFilesShowsItsRateInTheHeaderAndTheRows() throws {
        // Given four running downloads of 200 KiB and an engine that reports no rate of its own
        let activity = FakeActivity()
        var ids: [TaskID] = []
        let harness = try ControllerHarness(activity: activity) { journal, directory in
            for index in 1...4 {
                let id = try journal.insert(ControllerHarness.download("http://127.0.0.1/small\(index).bin", in: directory.path))
                try journal.updateState(id, to: .running)
                ids.append(id)
            }
        }
        for id in ids { activity.emit(.started(id)) }
        #expect(harness.waitUntil { $0.state.stats.count(.running) == 4 })
        harness.settle()

        // When each receives 50 KiB every quarter of a second
        for step in 1...3 {
            harness.clock.now = Double(step) * 0.25
            for id in ids {
                activity.emit(.progress(id, TransferProgress(receivedBytes: Int64(step) * 50 * kib, expectedReceivedBytes: 200 * kib)))
            }
            let done = Int64(step) * 50 * kib
            #expect(harness.waitUntil { $0.loadedRows.allSatisfy { $0.bytesDone == done } })
        }

        // Then each row shows 200 KiB/s from its first bytes, and the header the four together
        #expect(harness.loadedRows.map(\.speed) == Array(repeating: 200 * kib, count: 4))
        #expect(harness.state.stats.downloadSpeed == 800 * kib)

        // When all four finish their last 50 KiB before another reading
        harness.clock.now = 1
        for id in ids {
            try harness.journal.recordLength(id, 200 * kib)
            try harness.journal.updateState(id, to: .done)
            activity.emit(.ended(id, .done, error: nil))
        }

        // Then the header still counts them: 800 KiB in one second, while no row runs
        #expect(harness.waitUntil { $0.state.stats.count(.done) == 4 })
        harness.settle()
        #expect(harness.state.stats.count(.running) == 0)
        #expect(harness.state.stats.downloadSpeed == 800 * kib)

        // When nothing arrives for longer than the window, then the header says 0 B/s
        harness.clock.now = 10
        #expect(harness.waitUntil(seconds: 10) { $0.state.stats.downloadSpeed == 0 })
    }
}
