import FerryTestSupport
import Foundation
import Synchronization
import Testing
@testable import FerryKit

/// `SessionManager.setLimits` while transfers run, through the real engine from a real nginx
/// on 127.0.0.1. The transfers that must overlap are slowed by a speed cap and ended by the
/// test (cancelled), so what the test sees does not depend on how fast the machine is.
@Suite(.serialized) struct SessionLimitChangeTests {
    /// `Starts` notes, on the engine thread, how many transfers were running at each start,
    /// and whether the start came after `lowered()`. A transfer stops running when its network
    /// part is over or, cancelled, when it finishes (both before the engine starts another).
    final class Starts: Sendable {
        private struct State {
            var running: Set<Int> = []
            var starts: [(id: Int, others: Int, afterLowering: Bool)] = []
            var lowered = false
        }

        private let state = Mutex(State())

        func watch(_ task: TransferTask) {
            let id = task.id
            task.onStart { [self] in
                state.withLock { state in
                    state.starts.append((id, state.running.count, state.lowered))
                    state.running.insert(id)
                }
            }
            task.onTransportEnd { [self] in state.withLock { _ = $0.running.remove(id) } }
            task.onFinish { [self] _ in state.withLock { _ = $0.running.remove(id) } }
        }

        /// `lowered()` marks the starts from now on.
        func lowered() {
            state.withLock { $0.lowered = true }
        }

        var all: [(id: Int, others: Int, afterLowering: Bool)] { state.withLock { $0.starts } }
    }

    @Test func raisingStartsHeldTransfersAtOnceAndLoweringHoldsTheRestUntilFewerRun() async throws {
        // Given 5 files of 2 MB, the first three fetched at 5 KB/s (about 400 s: they run until
        // the test cancels them, however long a loaded machine keeps it waiting), and a
        // session that runs 1 transfer at once.
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        for index in 0..<5 { try Pattern.writeFile(at: www.file("f\(index)"), count: 2_000_000, seed: index) }
        let nginx = try NginxServer.start(root: www.url, limitRate: "1m")
        defer { nginx.stop() }
        var configuration = SessionConfiguration()
        configuration.maximumActiveTransfers = 1
        let session = SessionManager(configuration: configuration)
        defer { session.invalidate() }
        let starts = Starts()
        let tasks = (0..<5).map { index in
            var request = Request(url: nginx.url("/f\(index)"))
            if index < 3 { request.maximumReceiveSpeed = 5_000 }
            return session.downloadTask(with: request, to: DownloadDestination(directory: out.url, fileName: "f\(index)"))
        }
        for task in tasks {
            starts.watch(task)
            task.resume()
        }

        // When the limit is raised to 3.
        await session.setLimits(maximumActiveTransfers: 3, maximumActiveTransfersPerHost: nil)

        // Then the two held first start at once, 3 run together.
        #expect(session.maximumActiveTransfers == 3)
        #expect(starts.all.map(\.id) == tasks.prefix(3).map(\.id))
        #expect(starts.all.map(\.others) == [0, 1, 2])

        // When it is lowered to 1 and two of the three running transfers end.
        await session.setLimits(maximumActiveTransfers: 1, maximumActiveTransfersPerHost: nil)
        starts.lowered()
        #expect(session.maximumActiveTransfers == 1)
        for task in tasks.prefix(2) {
            task.cancel()
            _ = await task.outcome()
        }

        // Then no held transfer started: one still runs.
        #expect(!tasks[3].hasStarted)

        // When the last of them ends, the held ones run one at a time, each byte-exact.
        tasks[2].cancel()
        _ = await tasks[2].outcome()
        for index in 3..<5 {
            _ = try await tasks[index].result
            #expect(try SHA256Hex.of(file: out.file("f\(index)")) == Pattern.sha256Hex(count: 2_000_000, seed: index))
        }
        let later = starts.all.filter(\.afterLowering)
        #expect(later.map(\.id) == [tasks[3].id, tasks[4].id])
        #expect(later.map(\.others) == [0, 0])
    }
}
