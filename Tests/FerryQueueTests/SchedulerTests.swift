import FerryKit
import FerryQueue
import FerryTestSupport
import Foundation
import Testing

/// `Scheduler` against a real nginx and the fault server: limits, order, mirrors, retries,
/// a full disk, uploads, and changes made by another process.
@Suite(.serialized) struct SchedulerTests {
    private func download(_ url: URL, into directory: String, name: String? = nil, retries: Int? = nil, mirrors: [URL] = []) throws -> NewTask {
        let urls = try ([url] + mirrors).map { url throws(QueueError) in try TransferURL(validating: url.absoluteString) }
        return NewTask(spec: TaskSpec(urls: urls, destinationDirectory: directory, requestedName: name,
                                      options: TaskOptions(retries: retries)))
    }

    private func configuration(_ directory: String, concurrent: Int = 5, perHost: Int = 4) -> SchedulerConfiguration {
        SchedulerConfiguration(defaultDirectory: directory, maximumConcurrent: concurrent, maximumPerHost: perHost,
                               retryPolicy: RetryPolicy(retryLimit: 5, baseDelay: 0.05, maximumDelay: 0.2),
                               pollInterval: .milliseconds(200))
    }

    @Test func twoHundredDownloadsNeverExceedTheLimitAndAreByteExact() async throws {
        // Given 200 small files of different sizes and a queue of them.
        let www = try FerryTestSupport.TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove() }
        for index in 0..<200 {
            try Pattern.writeFile(at: www.file("f\(index).bin"), count: 1_000 + index * 97, seed: index)
        }
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let out = state.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try journal.insert((0..<200).map { try download(nginx.url("/f\($0).bin"), into: out) })
        let scheduler = Scheduler(journal: journal, configuration: configuration(out, concurrent: 8, perHost: 8))
        let recorder = EventRecorder(scheduler.events())

        // When the scheduler runs until the queue is idle.
        await scheduler.run(untilIdle: true)

        // Then every file is done and byte-exact, and at most 8 ran at once (8 at the start).
        #expect(await recorder.wait(timeout: .seconds(10)) { SchedulerEvents.count($0, state: .done) == 200 })
        #expect(SchedulerEvents.maximumConcurrent(recorder.all) == 8)
        #expect(try journal.countsByState()[.done] == 200)
        // Each done event names the file as the journal does, and each task keeps its size
        // (recorded with the outcome: a small file is never checkpointed).
        let tasks = try journal.tasks(limit: 200)
        for task in tasks {
            let size = try FileManager.default.attributesOfItem(atPath: try #require(task.finalPath))[.size] as? Int
            #expect(task.resume.totalLength == size.map(Int64.init))
        }
        for event in recorder.all {
            guard case .ended(let id, .done, _, let path) = event else { continue }
            #expect(path != nil && path == tasks.first { $0.id == id }?.finalPath)
        }
        for index in 0..<200 {
            let path = "\(out)/f\(index).bin"
            #expect(try SHA256Hex.of(file: URL(fileURLWithPath: path)) == Pattern.sha256Hex(count: 1_000 + index * 97, seed: index))
        }
        #expect(await scheduler.summary.worstFailure == nil)
    }

    @Test func aFinishingFileFreesItsSlotButFinishingFilesAreBounded() async throws {
        // Given 40 small downloads, 2 at once, whose completion (sync and final name) waits at a gate.
        let www = try FerryTestSupport.TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove() }
        for index in 0..<40 {
            try Pattern.writeFile(at: www.file("g\(index).bin"), count: 5_000, seed: index)
        }
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let out = state.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try journal.insert((0..<40).map { try download(nginx.url("/g\($0).bin"), into: out) })
        let gate = Gate()
        let scheduler = Scheduler(journal: journal, configuration: configuration(out, concurrent: 2, perHost: 2),
                                  delegateFactory: GatedDownloadDelegateFactory(gate: gate))
        let recorder = EventRecorder(scheduler.events())
        let run = Task { await scheduler.run(untilIdle: true) }

        // When the first transfers are over but their files cannot finish: the next two start
        // (a finishing file does not hold a slot), and no more than the bound of finishing
        // files allows (17 times the limit: 32 finishing and 2 transferring, 34 of the 40).
        #expect(await recorder.wait(timeout: .seconds(30)) { events in
            events.filter { if case .started = $0 { return true } else { return false } }.count == 34
        })
        try await Task.sleep(for: .milliseconds(300))
        let started = recorder.all.filter { if case .started = $0 { return true } else { return false } }.count
        #expect(started == 34)
        #expect(SchedulerEvents.count(recorder.all, state: .done) == 0)

        // Then, once files may finish, all 40 are done, never more than 2 transferring at once.
        gate.open()
        await run.value
        #expect(await recorder.wait(timeout: .seconds(10)) { SchedulerEvents.count($0, state: .done) == 40 })
        #expect(SchedulerEvents.maximumConcurrent(recorder.all) == 2)
        for index in 0..<40 {
            #expect(try SHA256Hex.of(file: URL(fileURLWithPath: "\(out)/g\(index).bin"))
                    == Pattern.sha256Hex(count: 5_000, seed: index))
        }
    }

    @Test func aKillAfterTheDoneRecordLeavesNoPartialNameBehind() async throws {
        // Given a download recorded done whose .part name is still linked to its file (a kill
        // came between the record and the removal of that name) and a task the crash left running.
        let www = try FerryTestSupport.TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove() }
        try Pattern.writeFile(at: www.file("f.bin"), count: 7_000, seed: 1)
        try Pattern.writeFile(at: www.file("g.bin"), count: 9_000, seed: 2)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let out = state.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        _ = try journal.insert(download(nginx.url("/f.bin"), into: out))
        await Scheduler(journal: journal, configuration: configuration(out)).run(untilIdle: true)
        #expect(link("\(out)/f.bin", "\(out)/f.bin.part") == 0)
        // An unrelated .part (not linked to a finished file) must stay.
        try Data("partial".utf8).write(to: URL(fileURLWithPath: "\(out)/other.bin.part"))
        let crashed = try journal.insert(download(nginx.url("/g.bin"), into: out))
        #expect(try journal.markRunning([crashed]) == [crashed])

        // When the next engine starts.
        await Scheduler(journal: journal, configuration: configuration(out)).run(untilIdle: true)

        // Then the leftover name is gone, the finished file is whole, the other task finished.
        #expect(!FileManager.default.fileExists(atPath: "\(out)/f.bin.part"))
        #expect(FileManager.default.fileExists(atPath: "\(out)/other.bin.part"))
        #expect(try SHA256Hex.of(file: URL(fileURLWithPath: "\(out)/f.bin")) == Pattern.sha256Hex(count: 7_000, seed: 1))
        #expect(try SHA256Hex.of(file: URL(fileURLWithPath: "\(out)/g.bin")) == Pattern.sha256Hex(count: 9_000, seed: 2))
        #expect(try journal.countsByState()[.done] == 2)
    }

    @Test func priorityDecidesTheOrder() async throws {
        // Given three queued tasks, the last one given a higher priority.
        let www = try FerryTestSupport.TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove() }
        for name in ["a", "b", "c"] { try Pattern.writeFile(at: www.file(name), count: 500) }
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let ids = try journal.insert(["a", "b", "c"].map { try download(nginx.url("/\($0)"), into: state.path) })
        try journal.setPriority(9, for: ids[2])
        let scheduler = Scheduler(journal: journal, configuration: configuration(state.path, concurrent: 1))
        let recorder = EventRecorder(scheduler.events())

        // When it runs one at a time.
        await scheduler.run(untilIdle: true)

        // Then c starts first, then a and b in insertion order.
        #expect(await recorder.wait(timeout: .seconds(10)) { SchedulerEvents.count($0, state: .done) == 3 })
        #expect(SchedulerEvents.startOrder(recorder.all) == [ids[2], ids[0], ids[1]])
    }

    @Test func aFailingMirrorMovesTheTaskToTheNextOne() async throws {
        // Given a task whose first mirror is a 404 and whose second refuses connections.
        let www = try FerryTestSupport.TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove() }
        try Pattern.writeFile(at: www.file("real.bin"), count: 70_000, seed: 3)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let closed = try Loopback.freePort()
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let id = try journal.insert(try download(
            nginx.url("/missing.bin"), into: state.path, name: "file.bin", retries: 0,
            mirrors: [URL(string: "http://127.0.0.1:\(closed)/real.bin")!, nginx.url("/real.bin")]))
        let scheduler = Scheduler(journal: journal, configuration: configuration(state.path))
        let recorder = EventRecorder(scheduler.events())

        // When it runs.
        await scheduler.run(untilIdle: true)

        // Then it moved on twice and finished from the third mirror, byte-exact.
        #expect(await recorder.wait(timeout: .seconds(10)) { SchedulerEvents.ends($0, of: id).count == 3 })
        let ends = SchedulerEvents.ends(recorder.all, of: id)
        #expect(ends.map(\.0) == [.queued, .queued, .done])
        #expect(ends[0].1?.contains("404") == true)
        #expect(ends[0].1?.contains("next mirror") == true)
        #expect(try SHA256Hex.of(file: URL(fileURLWithPath: state.file("file.bin"))) == Pattern.sha256Hex(count: 70_000, seed: 3))
        #expect(try journal.task(id)?.attempts == 3)
    }

    @Test func aFullDiskPausesTheTaskOnceAndTheQueueMovesOn() async throws {
        // Given two tasks, the first of which cannot be written (the disk is full).
        let www = try FerryTestSupport.TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove() }
        try Pattern.writeFile(at: www.file("big.bin"), count: 100_000, seed: 1)
        try Pattern.writeFile(at: www.file("ok.bin"), count: 10_000, seed: 2)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let ids = try journal.insert([try download(nginx.url("/big.bin"), into: state.path),
                                      try download(nginx.url("/ok.bin"), into: state.path)])
        let scheduler = Scheduler(journal: journal, configuration: configuration(state.path),
                                  delegateFactory: FailingDownloadDelegateFactory(failingName: "big.bin"))
        let recorder = EventRecorder(scheduler.events())

        // When it runs.
        await scheduler.run(untilIdle: true)

        // Then the first is paused after one attempt with a clear error, the second is done,
        // nothing is left behind, and the run's status is 4 (local file error).
        #expect(await recorder.wait(timeout: .seconds(10)) { SchedulerEvents.ends($0, of: ids[1]).count == 1 })
        let record = try #require(try journal.task(ids[0]))
        #expect(record.state == .paused)
        #expect(record.attempts == 1)
        #expect(record.lastError?.contains("disk full") == true)
        #expect(SchedulerEvents.startOrder(recorder.all).filter { $0 == ids[0] }.count == 1)
        #expect(recorder.all.filter { if case .started(ids[0]) = $0 { return true } else { return false } }.count == 1)
        #expect(try journal.task(ids[1])?.state == .done)
        #expect(!FileManager.default.fileExists(atPath: state.file("big.bin.part")))
        #expect(await scheduler.summary.worstFailure == .localFile)
    }

    @Test func transientFailuresAreRetriedUpToTheTaskLimitThenFail() async throws {
        // Given a task against a server that always answers 503, allowed one retry.
        let state = try TemporaryDirectory()
        let server = try FaultServer.start()
        defer { server.stop() }
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let id = try journal.insert(try download(server.url("/status/503"), into: state.path, name: "x", retries: 1))
        let scheduler = Scheduler(journal: journal, configuration: configuration(state.path))
        let recorder = EventRecorder(scheduler.events())

        // When it runs.
        await scheduler.run(untilIdle: true)

        // Then it was tried twice and failed with the server's status; status 1.
        #expect(await recorder.wait(timeout: .seconds(10)) { SchedulerEvents.ends($0, of: id).count == 2 })
        #expect(SchedulerEvents.ends(recorder.all, of: id).map(\.0) == [.queued, .failed])
        let record = try #require(try journal.task(id))
        #expect(record.state == .failed)
        #expect(record.attempts == 2)
        #expect(record.lastError?.contains("503") == true)
        #expect(await scheduler.summary.worstFailure == .transfer)
    }

    @Test func queuedUploadsReadTheirFilesWhenTheyStart() async throws {
        // Given two queued multipart uploads; the second one's file is deleted after queueing.
        let state = try TemporaryDirectory()
        let server = try FaultServer.start()
        defer { server.stop() }
        let payload = URL(fileURLWithPath: state.file("payload.bin"))
        let gone = state.file("gone.bin")
        try Pattern.writeFile(at: payload, count: 30_000, seed: 5)
        try Data("x".utf8).write(to: URL(fileURLWithPath: gone))
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let target = try TransferURL(validating: server.url("/multipart").absoluteString)
        let ids = try journal.insert([
            NewTask(spec: TaskSpec(urls: [target], upload: UploadSpec(
                fields: [UploadSpec.Field(name: "note", value: "hello")],
                files: [UploadSpec.File(fieldName: "file", path: payload.path)]))),
            NewTask(spec: TaskSpec(urls: [target], upload: UploadSpec(
                files: [UploadSpec.File(fieldName: "file", path: gone)]))),
        ])
        try FileManager.default.removeItem(atPath: gone)
        let scheduler = Scheduler(journal: journal, configuration: configuration(state.path, concurrent: 1))

        // When the queue runs.
        await scheduler.run(untilIdle: true)

        // Then the first was sent in full and is done; the second failed naming its file.
        #expect(try journal.task(ids[0])?.state == .done)
        let sent = try server.requests(prefix: "/multipart")
        #expect(sent.count == 1)
        #expect(sent.first?.method == "POST")
        #expect(sent.first?.bodyComplete == true)
        #expect((sent.first?.bodyRead ?? 0) > 30_000)
        // The server's reply (its parse of the form, as JSON) is kept for the detail pane.
        let reply = try #require(try journal.task(ids[0])?.reply)
        #expect(reply.hasPrefix("200 OK · {"))
        #expect(reply.contains("\"note\": \"hello\"") || reply.contains("\"note\":\"hello\""))
        // The body sent is kept as the task's size (the UI shows it for a finished upload).
        #expect(try journal.task(ids[0])?.resume.totalLength == sent.first.map { Int64($0.bodyRead) })
        let failed = try #require(try journal.task(ids[1]))
        #expect(failed.reply == nil)
        #expect(failed.state == .failed)
        #expect(failed.lastError?.contains("gone.bin") == true)
    }

    @Test func aPauseWrittenByAnotherProcessStopsTheTransferWithinASecond() async throws {
        // Given a slow download running in a scheduler that runs until stopped.
        let slow = try await SlowDownload.start(untilIdle: false)
        defer { slow.end() }
        let (state, journal, id, scheduler, recorder, running) =
            (slow.state, slow.journal, slow.id, slow.scheduler, slow.recorder, slow.running)

        // When another connection to the journal (another process) pauses it.
        let other = try Journal.open(at: state.file("journal.sqlite"), onCorruption: .fail).journal
        #expect(try other.updateStates([id], to: .paused) == [id])

        // Then the scheduler stops the transfer and reports it paused, and stop() returns.
        #expect(await recorder.wait(timeout: .seconds(5)) { SchedulerEvents.ends($0, of: id).map(\.0) == [.paused] })
        await scheduler.stop()
        await running.value
        #expect(try journal.task(id)?.state == .paused)
        #expect(!FileManager.default.fileExists(atPath: state.file("slow.bin")))
    }

    @Test func stopKeepsRunningTasksQueuedForNextTime() async throws {
        // Given a slow download running.
        let slow = try await SlowDownload.start(untilIdle: true)
        defer { slow.end() }
        let (journal, id, scheduler, recorder, running) = (slow.journal, slow.id, slow.scheduler, slow.recorder, slow.running)

        // When the scheduler is stopped.
        await scheduler.stop()
        await running.value

        // Then the task is queued again, not failed.
        #expect(try journal.task(id)?.state == .queued)
        #expect(SchedulerEvents.ends(recorder.all, of: id).map(\.0) == [.queued])
    }
}

/// `SlowDownload` is one 4 MB download from nginx at 100 KB/s, running in a scheduler with the
/// default configuration, already started (its `started` event seen).
private struct SlowDownload {
    let www: FerryTestSupport.TemporaryDirectory
    let state: TemporaryDirectory
    let nginx: NginxServer
    let journal: Journal
    let id: TaskID
    let scheduler: Scheduler
    let recorder: EventRecorder
    let running: Task<Void, Never>

    static func start(untilIdle: Bool) async throws -> SlowDownload {
        let www = try FerryTestSupport.TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        try Pattern.writeFile(at: www.file("slow.bin"), count: 4_000_000)
        let nginx = try NginxServer.start(root: www.url, limitRate: "100k")
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let url = try TransferURL(validating: nginx.url("/slow.bin").absoluteString)
        let id = try journal.insert(NewTask(spec: TaskSpec(urls: [url], destinationDirectory: state.path)))
        let scheduler = Scheduler(journal: journal, configuration: SchedulerConfiguration(defaultDirectory: state.path))
        let recorder = EventRecorder(scheduler.events())
        let running = Task { await scheduler.run(untilIdle: untilIdle) }
        #expect(await recorder.wait(timeout: .seconds(10)) { SchedulerEvents.startOrder($0) == [id] })
        return SlowDownload(www: www, state: state, nginx: nginx, journal: journal, id: id, scheduler: scheduler,
                            recorder: recorder, running: running)
    }

    /// `end()` stops the server and removes the served files (the state directory goes with its owner).
    func end() {
        nginx.stop()
        www.remove()
    }
}
