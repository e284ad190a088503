import FerryKit
import FerryQueue
import FerryTestSupport
import Foundation
import Synchronization
import Testing

/// `Scheduler.setLimits` against a real nginx whose `limit_rate` keeps transfers running long
/// enough to overlap: raising starts more at once, lowering starts none until few enough run.
@Suite(.serialized) struct SchedulerLimitTests {
    /// `Overlap` follows a scheduler's events on the threads that publish them and notes, for
    /// every start, how many other transfers were running and whether the limits had been
    /// lowered by then (`lowered()`).
    final class Overlap: Sendable {
        /// `Start` is one `started` event: its task, the transfers running besides it, and
        /// whether it came after `lowered()`.
        struct Start: Equatable {
            let id: TaskID
            let others: Int
            let afterLowering: Bool
        }

        private struct State {
            var running: Set<TaskID> = []
            var starts: [Start] = []
            var lowered = false
        }

        private let state = Mutex(State())

        init(_ scheduler: Scheduler) {
            scheduler.observe { [self] event in
                state.withLock { state in
                    switch event {
                    case .started(let id):
                        state.starts.append(Start(id: id, others: state.running.count, afterLowering: state.lowered))
                        state.running.insert(id)
                    case .transferred(let id), .ended(let id, _, _, _):
                        state.running.remove(id)
                    default:
                        break
                    }
                }
            }
        }

        /// `lowered()` marks the starts from now on.
        func lowered() {
            state.withLock { $0.lowered = true }
        }

        /// `starts` is every start so far, in order.
        var starts: [Start] { state.withLock { $0.starts } }
    }

    @Test func raisingTheLimitStartsMoreAtOnceAndLoweringItStartsNoneUntilFewerRun() async throws {
        // Given 5 files of 2 MB served at 1 MB/s (about 2 s each: the first few hundred KB go
        // into the socket buffers at once) and a queue run 1 at a time.
        let www = try FerryTestSupport.TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove() }
        for index in 0..<5 {
            try Pattern.writeFile(at: www.file("l\(index).bin"), count: 2_000_000, seed: index)
        }
        let nginx = try NginxServer.start(root: www.url, limitRate: "1m")
        defer { nginx.stop() }
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let urls = try (0..<5).map { index throws(QueueError) in
            try TransferURL(validating: nginx.url("/l\(index).bin").absoluteString)
        }
        try journal.insert(urls.map { NewTask(spec: TaskSpec(urls: [$0], destinationDirectory: state.path)) })
        let scheduler = Scheduler(journal: journal, configuration: SchedulerConfiguration(
            defaultDirectory: state.path, maximumConcurrent: 1, maximumPerHost: 1, pollInterval: .milliseconds(200)))
        let overlap = Overlap(scheduler)
        let recorder = EventRecorder(scheduler.events())
        let run = Task { await scheduler.run(untilIdle: true) }
        #expect(await recorder.wait(timeout: .seconds(10)) { SchedulerEvents.startOrder($0).count == 1 })

        // When the limits are raised to 3 while the first file runs.
        await scheduler.setLimits(maximumConcurrent: 3, maximumPerHost: 3)

        // Then 3 run at once right away.
        #expect(await recorder.wait(timeout: .seconds(5)) { SchedulerEvents.maximumConcurrent($0) == 3 })
        #expect(await scheduler.configuration.maximumConcurrent == 3)

        // When the global limit is lowered to 1 again while 3 run (the per-host one is kept).
        await scheduler.setLimits(maximumConcurrent: 1)
        overlap.lowered()
        #expect(await scheduler.configuration.maximumConcurrent == 1)
        #expect(await scheduler.configuration.maximumPerHost == 3)
        await run.value
        #expect(await recorder.wait(timeout: .seconds(10)) { SchedulerEvents.count($0, state: .done) == 5 })

        // Then no running transfer was stopped, and every later start found nothing else
        // running: the last files ran one at a time. All 5 are done and byte-exact.
        let starts = overlap.starts
        let later = starts.filter(\.afterLowering)
        #expect(!later.isEmpty)
        #expect(later.allSatisfy { $0.others == 0 }, "\(starts)")
        #expect(starts.map(\.others).max() == 2)
        for start in starts where !start.afterLowering {
            #expect(SchedulerEvents.ends(recorder.all, of: start.id).map(\.0) == [.done])
        }
        #expect(try journal.countsByState()[.done] == 5)
        #expect(SchedulerEvents.count(recorder.all, state: .failed) == 0)
        for index in 0..<5 {
            #expect(try SHA256Hex.of(file: URL(fileURLWithPath: state.file("l\(index).bin")))
                    == Pattern.sha256Hex(count: 2_000_000, seed: index))
        }
    }
}
