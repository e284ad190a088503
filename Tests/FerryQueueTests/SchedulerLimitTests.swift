import FerryKit
import FerryQueue
import FerryTestSupport
import Foundation
import Synchronization
import Testing

/// `Scheduler.setLimits` against a real nginx: raising starts more tasks at once, lowering
/// starts none until fewer run than the new limit. The tasks that must overlap are slowed by a
/// speed cap and ended by the test (paused), so what the test sees does not depend on how
/// fast the machine is.
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

        /// `stopping(_:)` counts a transfer the test is about to stop as over: its `ended` comes
        /// after the engine has let the next one start.
        func stopping(_ id: TaskID) {
            state.withLock { _ = $0.running.remove(id) }
        }

        /// `starts` is every start so far, in order.
        var starts: [Start] { state.withLock { $0.starts } }
    }

    @Test func raisingTheLimitStartsMoreAtOnceAndLoweringItStartsNoneUntilFewerRun() async throws {
        // Given 5 files of 2 MB served at 1 MB/s, the first three capped at 5 KB/s (about 400 s:
        // they run until the test pauses them, however long a loaded machine keeps it waiting),
        // and a queue run 1 at a time.
        let www = try FerryTestSupport.TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove() }
        for index in 0..<5 {
            try Pattern.writeFile(at: www.file("l\(index).bin"), count: 2_000_000, seed: index)
        }
        let nginx = try NginxServer.start(root: www.url, limitRate: "1m")
        defer { nginx.stop() }
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let ids = try journal.insert((0..<5).map { index in
            NewTask(spec: TaskSpec(urls: [try TransferURL(validating: nginx.url("/l\(index).bin").absoluteString)],
                                   destinationDirectory: state.path,
                                   options: TaskOptions(maxDownloadLimit: index < 3 ? 5_000 : nil)))
        })
        let scheduler = Scheduler(journal: journal, configuration: SchedulerConfiguration(
            defaultDirectory: state.path, maximumConcurrent: 1, maximumPerHost: 1, pollInterval: .milliseconds(200)))
        let overlap = Overlap(scheduler)
        let recorder = EventRecorder(scheduler.events())
        let run = Task { await scheduler.run(untilIdle: true) }
        #expect(await recorder.wait(timeout: .seconds(30)) { SchedulerEvents.startOrder($0) == [ids[0]] })

        // When the limits are raised to 3 while the first runs.
        await scheduler.setLimits(maximumConcurrent: 3, maximumPerHost: 3)

        // Then the next two have started at once: 3 run together.
        #expect(overlap.starts.map(\.id) == Array(ids.prefix(3)))
        #expect(overlap.starts.map(\.others) == [0, 1, 2])
        #expect(await scheduler.configuration.maximumConcurrent == 3)

        // When the global limit is lowered to 1 (the per-host one is kept) and two of the
        // three running tasks are paused.
        await scheduler.setLimits(maximumConcurrent: 1)
        overlap.lowered()
        #expect(await scheduler.configuration.maximumConcurrent == 1)
        #expect(await scheduler.configuration.maximumPerHost == 3)
        for id in ids.prefix(2) {
            overlap.stopping(id)
            await scheduler.pause([id])
            #expect(await recorder.wait(timeout: .seconds(30)) { SchedulerEvents.ends($0, of: id).map(\.0) == [.paused] })
        }

        // Then nothing else started: one still runs.
        #expect(overlap.starts.count == 3)

        // When the last of them is paused, the other two run one at a time, byte-exact; the
        // running tasks were never stopped by the limits (each ended once, paused).
        overlap.stopping(ids[2])
        await scheduler.pause([ids[2]])
        await run.value
        #expect(await recorder.wait(timeout: .seconds(30)) { SchedulerEvents.count($0, state: .done) == 2 })
        let later = overlap.starts.filter(\.afterLowering)
        #expect(later.map(\.id) == Array(ids.suffix(2)))
        #expect(later.map(\.others) == [0, 0])
        for id in ids.prefix(3) {
            #expect(SchedulerEvents.ends(recorder.all, of: id).map(\.0) == [.paused])
        }
        for index in 3..<5 {
            #expect(try SHA256Hex.of(file: URL(fileURLWithPath: state.file("l\(index).bin")))
                    == Pattern.sha256Hex(count: 2_000_000, seed: index))
        }
    }
}
