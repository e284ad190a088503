import FerryTestSupport
import Foundation
import Synchronization
import Testing
@testable import FerryKit

/// `SessionManager.setLimits` while transfers run, through the real engine from a real nginx
/// on 127.0.0.1 whose `limit_rate` keeps the transfers running long enough to overlap.
@Suite(.serialized) struct SessionLimitChangeTests {
    /// `Starts` notes, on the engine thread, how many transfers were running at each start,
    /// and whether the start came after `lowered()`.
    final class Starts: Sendable {
        private struct State {
            var running = 0
            var starts: [(others: Int, afterLowering: Bool)] = []
            var lowered = false
        }

        private let state = Mutex(State())

        func watch(_ task: TransferTask) {
            task.onStart { [self] in
                state.withLock { state in
                    state.starts.append((state.running, state.lowered))
                    state.running += 1
                }
            }
            task.onTransportEnd { [self] in state.withLock { $0.running -= 1 } }
        }

        /// `lowered()` marks the starts from now on.
        func lowered() {
            state.withLock { $0.lowered = true }
        }

        var all: [(others: Int, afterLowering: Bool)] { state.withLock { $0.starts } }
    }

    @Test func raisingStartsHeldTransfersAtOnceAndLoweringHoldsTheRestUntilNoneRuns() async throws {
        // Given 5 files of 2 MB served at 1 MB/s (the first few hundred KB of each go into the
        // socket buffers at once) and a session that runs 1 at once.
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
            session.downloadTask(with: Request(url: nginx.url("/f\(index)")),
                                 to: DownloadDestination(directory: out.url, fileName: "f\(index)"))
        }
        for task in tasks {
            starts.watch(task)
            task.resume()
        }

        // When the limit is raised to 3, then lowered to 1 while 3 run.
        await session.setLimits(maximumActiveTransfers: 3, maximumActiveTransfersPerHost: nil)
        let afterRaising = starts.all.count
        #expect(session.maximumActiveTransfers == 3)
        await session.setLimits(maximumActiveTransfers: 1, maximumActiveTransfersPerHost: nil)
        starts.lowered()
        #expect(session.maximumActiveTransfers == 1)

        // Then 3 had started by the time the raise was applied, each later start found no
        // other transfer running, and every file is byte-exact.
        for (index, task) in tasks.enumerated() {
            _ = try await task.result
            #expect(try SHA256Hex.of(file: out.file("f\(index)")) == Pattern.sha256Hex(count: 2_000_000, seed: index))
        }
        let all = starts.all
        #expect(afterRaising == 3)
        #expect(all.prefix(3).map(\.others) == [0, 1, 2])
        #expect(all.filter(\.afterLowering).count == 2)
        #expect(all.filter(\.afterLowering).allSatisfy { $0.others == 0 }, "\(all)")
    }
}
