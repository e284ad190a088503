import FerryTestSupport
import Foundation
import Testing
@testable import FerryKit

/// `SessionConfiguration.overallLimits` and `SessionManager.setOverallLimits`: one budget
/// shared by every transfer of the engine, through the real engine from a real nginx on
/// 127.0.0.1 (unthrottled: the budget is the only limit).
@Suite(.serialized) struct SessionOverallLimitTests {
    /// Waits on the recorder until every task has moved a byte, at most `timeout` seconds.
    private func waitUntilAllMove(_ tasks: [TransferTask], _ recorder: RateRecorder, timeout: Double = 20) async throws {
        let deadline = recorder.now + timeout
        while recorder.now < deadline {
            if tasks.allSatisfy({ recorder.bytes(of: $0.id, at: recorder.now) > 0 }) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    private func start(_ count: Int, size: Int, session: SessionManager, nginx: NginxServer, out: TemporaryDirectory,
                       caps: [Int: Int64] = [:]) -> [TransferTask] {
        (0..<count).map { index in
            var request = Request(url: nginx.url("/f\(index)"))
            request.maximumReceiveSpeed = caps[index]
            let task = session.downloadTask(with: request, to: DownloadDestination(directory: out.url, fileName: "f\(index)"))
            task.resume()
            return task
        }
    }

    @Test func threeTransfersShareOneBudgetFairlyAndACapIsKept() async throws {
        // Given four 64 MiB files, a session with a 1 MiB/s budget, and the fourth transfer
        // capped at 64 KiB/s (below its fair share of 256 KiB/s).
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        for index in 0..<4 { try Pattern.writeFile(at: www.file("f\(index)"), count: 64 << 20, seed: index) }
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        var configuration = SessionConfiguration()
        configuration.overallLimits = OverallLimits(download: 1 << 20)
        let session = SessionManager(configuration: configuration)
        defer { session.invalidate() }
        let recorder = RateRecorder(session: session)

        // When all four run for 5 seconds (after the first second once all four moved), on
        // the recorder's clock: the window is 5 s however late this task is resumed.
        let tasks = start(4, size: 64 << 20, session: session, nginx: nginx, out: out, caps: [3: 64 << 10])
        try await waitUntilAllMove(tasks, recorder)
        let moving = try #require(recorder.allMoving(tasks.map(\.id)), "not all four moved")
        let from = moving + 1
        let to = from + 5
        await recorder.wait(until: to)

        // Then together they moved at most the budget (5% over for the clock's grain), the
        // capped one at most its cap, the three others as much as one another (within 25% of
        // their mean), every second something. What a busy machine cannot take away is
        // asserted closely: the ceilings and the fairness, measured in bytes through the
        // limiter. How close to the budget they come depends on the CPU the process gets,
        // so the floor is loose (half the budget).
        let moved = tasks.map { recorder.moved(by: $0.id, from: from, to: to) }
        let seconds = to - from
        let total = Double(moved.reduce(0, +)) / seconds
        #expect(total < 1.05 * Double(1 << 20) && total > 0.5 * Double(1 << 20), "\(moved)")
        #expect(Double(moved[3]) / seconds < 1.15 * Double(64 << 10), "\(moved)")
        let mean = Double(moved[0..<3].reduce(0, +)) / 3
        #expect(mean > Double(moved[3]), "the capped one is slowest: \(moved)")
        for index in 0..<3 {
            #expect(abs(Double(moved[index]) - mean) < 0.25 * mean, "\(index): \(moved)")
            #expect(recorder.perSecond(of: tasks[index].id, from: from, to: to).allSatisfy { $0 > 0 })
        }
        for task in tasks { task.cancel() }
    }

    @Test func aNewBudgetAppliesToRunningTransfersAtOnce() async throws {
        // Given two transfers running under a 2 MiB/s budget.
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        for index in 0..<2 { try Pattern.writeFile(at: www.file("f\(index)"), count: 64 << 20, seed: index) }
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        var configuration = SessionConfiguration()
        configuration.overallLimits = OverallLimits(download: 2 << 20)
        let session = SessionManager(configuration: configuration)
        defer { session.invalidate() }
        let recorder = RateRecorder(session: session)
        let tasks = start(2, size: 64 << 20, session: session, nginx: nginx, out: out)
        try await waitUntilAllMove(tasks, recorder)

        // When the budget drops to 256 KiB/s.
        await session.setOverallLimits(OverallLimits(download: 256 << 10))
        #expect(session.overallLimits.download == 256 << 10)
        let changed = recorder.now

        // Then from a second later on the two together move at most 256 KiB/s (10% over for
        // the clock's grain; at least half of it however busy the machine), and once lifted
        // they go far faster. The windows are on the recorder's clock.
        let from = changed + 1
        let to = from + 3
        await recorder.wait(until: to)
        let slow = Double(tasks.map { recorder.moved(by: $0.id, from: from, to: to) }.reduce(0, +)) / (to - from)
        #expect(slow < 1.1 * Double(256 << 10) && slow > 0.5 * Double(256 << 10), "\(slow) B/s after the change at \(changed)")
        await session.setOverallLimits(OverallLimits())
        let liftedFrom = recorder.now + 1
        await recorder.wait(until: liftedFrom + 1)
        let fast = Double(tasks.map { recorder.moved(by: $0.id, from: liftedFrom, to: liftedFrom + 1) }.reduce(0, +))
        #expect(fast > 4 * Double(256 << 10) || tasks.allSatisfy { $0.state == .completed }, "\(fast)")
        for task in tasks { task.cancel() }
    }

    @Test func aBudgetSetOnTransfersStartedWithoutOneIsSmoothAtOnce() async throws {
        // Given two transfers started without a budget (nginx sends each 4 MB/s, so they
        // read libcurl's largest pieces).
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        for index in 0..<2 { try Pattern.writeFile(at: www.file("f\(index)"), count: 128 << 20, seed: index) }
        let nginx = try NginxServer.start(root: www.url, limitRate: "4m")
        defer { nginx.stop() }
        let session = SessionManager()
        defer { session.invalidate() }
        let recorder = RateRecorder(session: session)
        let tasks = start(2, size: 128 << 20, session: session, nginx: nginx, out: out)
        try await waitUntilAllMove(tasks, recorder)
        await recorder.wait(until: recorder.now + 0.5)

        // When a budget of 256 KiB/s is set.
        await session.setOverallLimits(OverallLimits(download: 256 << 10))
        let set = recorder.now

        // Then from the next second on each receives some of its half every second and never
        // more than 30% over it: not a burst followed by silence. (Less than its half in a
        // second is what a busy machine's scheduling can cause; more, only the limiter.) The
        // window is 4 s on the recorder's clock.
        let from = set + 1
        let to = from + 4
        await recorder.wait(until: to)
        for task in tasks {
            let seconds = recorder.perSecond(of: task.id, from: from, to: to)
            let half = Double(128 << 10)
            #expect(seconds.allSatisfy { $0 > 0 && Double($0) < 1.3 * half }, "\(seconds)")
        }
        for task in tasks { task.cancel() }
    }

    @Test func anUploadBudgetHoldsTheSendRate() async throws {
        // Given a 3 MB upload to the fault server's sink under a 1 MB/s upload budget.
        let server = try FaultServer.start()
        defer { server.stop() }
        var configuration = SessionConfiguration()
        configuration.overallLimits = OverallLimits(upload: 1_000_000)
        let session = SessionManager(configuration: configuration)
        defer { session.invalidate() }
        let recorder = RateRecorder(session: session)

        // When it is sent.
        let task = session.uploadTask(with: Request(url: server.url("/sink"), method: .post),
                                      body: .data(Data(count: 3_000_000)))
        task.resume()
        let outcome = await task.outcome()

        // Then it was accepted, and its 3 MB took at least about 3 s from the first byte sent (a
        // burst of four tenths of a second is allowed), timed by the progress events as they
        // were published. (Longer is what a busy machine can cause; shorter, only the limiter.)
        guard case .success(let result) = outcome, result.response.statusCode == 200 else {
            Issue.record("\(outcome)")
            return
        }
        guard let first = recorder.time(of: task.id, reaching: 1), let last = recorder.time(of: task.id, reaching: 3_000_000) else {
            Issue.record("no progress of the send was published")
            return
        }
        let elapsed = last - first
        #expect(elapsed > 2.6, "\(elapsed) s")
    }
}
