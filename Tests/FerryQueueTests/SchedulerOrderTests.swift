import FerryKit
import FerryQueue
import FerryTestSupport
import Foundation
import Testing

/// The queue order against tasks handed to the session ahead of need: a task moved to the
/// top starts next, however the tasks handed ahead before the move come back, and even when
/// the move was made by another process and not polled yet.
@Suite(.serialized) struct SchedulerOrderTests {
    @Test func aTaskMovedToTheTopStartsNextEvenWhenTheTasksHandedAheadComeBackOneByOne() async throws {
        // Given a queue run one at a time: the first task runs, the other two are handed to the
        // session ahead of need; the third one's attempt ends only when the test opens a gate.
        let gate = Gate()
        defer { gate.open() }
        let queue = try await ThreeSlowTasks.start(gatingTheThird: gate)
        defer { queue.end() }
        let (journal, ids, scheduler, recorder) = (queue.journal, queue.ids, queue.scheduler, queue.recorder)

        // When the third is moved to the top, and the tasks handed ahead come back one by one:
        // the second is queued again while the third's attempt has not ended yet.
        #expect(try journal.move(ids[2], .toTop))
        await scheduler.journalDidChange()
        #expect(await recorder.wait(timeout: .seconds(30)) { SchedulerEvents.ends($0, of: ids[1]).map(\.0) == [.queued] })
        gate.open()
        #expect(await recorder.wait(timeout: .seconds(30)) { SchedulerEvents.ends($0, of: ids[2]).map(\.0) == [.queued] })

        // And the running one is paused, freeing the one slot.
        await scheduler.pause([ids[0]])

        // Then the task moved to the top is the one that starts next.
        #expect(await recorder.wait(timeout: .seconds(30)) { SchedulerEvents.startOrder($0).count == 2 })
        #expect(SchedulerEvents.startOrder(recorder.all) == [ids[0], ids[2]])
        await queue.stop()
    }

    @Test func aTaskMovedByAnotherProcessStartsNextWhenAPauseFreesTheSlotBeforeThePoll() async throws {
        // Given a queue run one at a time, polling the journal once a minute: the first task
        // runs, the other two are handed to the session ahead of need.
        let queue = try await ThreeSlowTasks.start()
        defer { queue.end() }
        let (state, ids, scheduler, recorder) = (queue.state, queue.ids, queue.scheduler, queue.recorder)

        // When another connection to the journal (another process) moves the third to the top,
        // and the running one is paused before the scheduler polled the journal.
        let other = try Journal.open(at: state.file("journal.sqlite"), onCorruption: .fail).journal
        #expect(try other.move(ids[2], .toTop))
        await scheduler.pause([ids[0]])

        // Then the task moved to the top is the one that starts next.
        #expect(await recorder.wait(timeout: .seconds(30)) { SchedulerEvents.startOrder($0).count == 2 })
        #expect(SchedulerEvents.startOrder(recorder.all) == [ids[0], ids[2]])
        await queue.stop()
    }

    @Test func tasksHeldAheadThatAnotherProcessPausesOrRemovesAreGivenBackUntouched() async throws {
        // Given a queue run one at a time: the first task runs, the other two are held ahead.
        let queue = try await ThreeSlowTasks.start()
        defer { queue.end() }
        let (state, ids, scheduler, recorder) = (queue.state, queue.ids, queue.scheduler, queue.recorder)

        // When another process pauses the second, removes the third and adds a fourth, the
        // scheduler sees the change, and the running one is paused, freeing the one slot.
        let other = try Journal.open(at: state.file("journal.sqlite"), onCorruption: .fail).journal
        #expect(try other.moveStates([ids[1]], from: [.queued], to: .paused) == [ids[1]: .queued])
        #expect(try other.remove([ids[2]]) == 1)
        let fourth = try other.insert(NewTask(spec: TaskSpec(
            urls: [try TransferURL(validating: queue.nginx.url("/o0.bin").absoluteString)], destinationDirectory: state.path,
            requestedName: "fourth.bin", options: TaskOptions(maxDownloadLimit: 5_000))))
        await scheduler.journalDidChange()
        await scheduler.pause([ids[0]])

        // Then the fourth is the next to start: the two held were given back, never started,
        // and the paused one is as the other process left it (no attempt recorded).
        #expect(await recorder.wait(timeout: .seconds(30)) { SchedulerEvents.startOrder($0).count == 2 })
        #expect(SchedulerEvents.startOrder(recorder.all) == [ids[0], fourth])
        let paused = try #require(try other.task(ids[1]))
        #expect(paused.state == .paused && paused.attempts == 0)
        #expect(try other.task(ids[2]) == nil)
        await queue.stop()
    }
}

/// `ThreeSlowTasks` is three 2 MB downloads capped at 5 KB/s (they run until the test stops
/// them) in a queue run one at a time that polls the journal once a minute, already running:
/// the first one has started (`running` in the journal), the other two are handed to the
/// session ahead of need (`queued` in the journal).
private struct ThreeSlowTasks {
    /// `OneGatedDownloadDelegateFactory` makes download delegates whose completion waits
    /// until `gate` opens for the task `gated` only; the other tasks end as usual.
    struct OneGatedDownloadDelegateFactory: DownloadDelegateFactory {
        let gated: TaskID
        let gate: Gate?

        func makeDelegate(for record: TaskRecord, destination: DownloadDestination) -> any TaskDelegate {
            let inner = DownloadTaskDelegate(destination: destination)
            guard record.id == gated, let gate else { return inner }
            return InterceptingDelegate(inner: inner, completion: gate.pass)
        }
    }

    let www: FerryTestSupport.TemporaryDirectory
    let state: TemporaryDirectory
    let nginx: NginxServer
    let journal: Journal
    let ids: [TaskID]
    let scheduler: Scheduler
    let recorder: EventRecorder
    let running: Task<Void, Never>

    /// `start(gatingTheThird:)` starts the queue; with `gate`, the third task's attempts end
    /// only once it opens.
    static func start(gatingTheThird gate: Gate? = nil) async throws -> ThreeSlowTasks {
        let www = try FerryTestSupport.TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        for index in 0..<3 {
            try Pattern.writeFile(at: www.file("o\(index).bin"), count: 2_000_000, seed: index)
        }
        let nginx = try NginxServer.start(root: www.url)
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let ids = try journal.insert((0..<3).map { index in
            NewTask(spec: TaskSpec(urls: [try TransferURL(validating: nginx.url("/o\(index).bin").absoluteString)],
                                   destinationDirectory: state.path, options: TaskOptions(maxDownloadLimit: 5_000)))
        })
        let scheduler = Scheduler(
            journal: journal,
            configuration: SchedulerConfiguration(defaultDirectory: state.path, maximumConcurrent: 1, maximumPerHost: 1,
                                                  pollInterval: .seconds(60)),
            delegateFactory: OneGatedDownloadDelegateFactory(gated: ids[2], gate: gate))
        let recorder = EventRecorder(scheduler.events())
        let running = Task { await scheduler.run(untilIdle: false) }
        let queue = ThreeSlowTasks(www: www, state: state, nginx: nginx, journal: journal, ids: ids, scheduler: scheduler,
                                   recorder: recorder, running: running)
        #expect(await recorder.wait(timeout: .seconds(30)) { SchedulerEvents.startOrder($0) == [ids[0]] })
        // Only the started one reads `running`; the two held ahead are queued, handed over
        // (their names reserved).
        #expect(try await Eventually.holds(timeout: .seconds(30)) {
            try journal.states(of: Set(ids)) == [ids[0]: .running, ids[1]: .queued, ids[2]: .queued]
        })
        #expect(try journal.task(ids[1])?.fileName == "o1.bin" && journal.task(ids[2])?.fileName == "o2.bin")
        return queue
    }

    /// `stop()` stops the scheduler and waits for its run to end.
    func stop() async {
        await scheduler.stop()
        await running.value
    }

    /// `end()` stops the server and removes the served files.
    func end() {
        nginx.stop()
        www.remove()
    }
}
