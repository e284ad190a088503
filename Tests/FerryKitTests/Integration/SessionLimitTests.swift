import FerryTestSupport
import Foundation
import Synchronization
import Testing
@testable import FerryKit

/// A session's limits on running transfers (`maximumActiveTransfers`, per host too), through
/// the real engine from real nginx servers on 127.0.0.1.
@Suite(.serialized) struct SessionLimitTests {
    /// `Timeline` records, from the engine thread, when each transfer started and ended.
    final class Timeline: Sendable {
        private let entries = Mutex<[(id: Int, host: String, starts: Bool)]>([])

        func watch(_ task: TransferTask, host: String) {
            let id = task.id
            task.onStart { [self] in entries.withLock { $0.append((id, host, true)) } }
            task.onTransportEnd { [self] in entries.withLock { $0.append((id, host, false)) } }
        }

        /// The most transfers running at once, among those to `host` when given.
        func mostAtOnce(host: String? = nil) -> Int {
            var running = 0
            var most = 0
            for entry in entries.withLock({ $0 }) where host == nil || entry.host == host {
                running += entry.starts ? 1 : -1
                most = max(most, running)
            }
            return most
        }

        /// How many transfers to `host` started before any transfer ended.
        func startsBeforeAnyEnd(of host: String) -> Int {
            let all = entries.withLock { $0 }
            let firstEnd = all.firstIndex { !$0.starts } ?? all.count
            return all[..<firstEnd].filter { $0.starts && $0.host == host }.count
        }

        var startOrder: [Int] { entries.withLock { $0.filter(\.starts).map(\.id) } }
    }

    private func configuration(total: Int?, perHost: Int?) -> SessionConfiguration {
        var configuration = SessionConfiguration()
        configuration.maximumActiveTransfers = total
        configuration.maximumActiveTransfersPerHost = perHost
        return configuration
    }

    @Test func transfersBeyondTheLimitWaitAndStartInOrder() async throws {
        // Given 8 files of 64 KiB served at 512 KiB/s each, and a session that runs 2 at once.
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        for index in 0..<8 { try Pattern.writeFile(at: www.file("f\(index)"), count: 64 << 10, seed: index) }
        let nginx = try NginxServer.start(root: www.url, limitRate: "512k")
        defer { nginx.stop() }
        let session = SessionManager(configuration: configuration(total: 2, perHost: nil))
        defer { session.invalidate() }
        let timeline = Timeline()

        // When all 8 are resumed at once.
        let tasks = (0..<8).map { index in
            session.downloadTask(with: Request(url: nginx.url("/f\(index)")),
                                 to: DownloadDestination(directory: out.url, fileName: "f\(index)"))
        }
        for task in tasks {
            timeline.watch(task, host: "one")
            task.resume()
        }

        // Then never more than 2 ran at once, they started in the order they were resumed,
        // and every file is byte-exact.
        for (index, task) in tasks.enumerated() {
            _ = try await task.result
            #expect(try SHA256Hex.of(file: out.file("f\(index)")) == Pattern.sha256Hex(count: 64 << 10, seed: index))
        }
        #expect(timeline.mostAtOnce() == 2)
        #expect(timeline.startOrder == tasks.map(\.id))
    }

    @Test func thePerHostLimitHoldsOneHostWithoutHoldingTheOther() async throws {
        // Given two servers (two hosts) and a session that runs 1 transfer at once per host.
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        try Pattern.writeFile(at: www.file("f"), count: 64 << 10, seed: 1)
        let first = try NginxServer.start(root: www.url, limitRate: "512k")
        defer { first.stop() }
        let second = try NginxServer.start(root: www.url, limitRate: "512k")
        defer { second.stop() }
        let session = SessionManager(configuration: configuration(total: nil, perHost: 1))
        defer { session.invalidate() }
        let timeline = Timeline()

        // When 3 downloads to the first host, then 3 to the second, are resumed at once.
        var tasks: [TransferTask] = []
        for index in 0..<6 {
            let server = index < 3 ? first : second
            let task = session.downloadTask(with: Request(url: server.url("/f")),
                                            to: DownloadDestination(directory: out.url, fileName: "f\(index)"))
            timeline.watch(task, host: index < 3 ? "first" : "second")
            tasks.append(task)
            task.resume()
        }

        // Then each host had one transfer at a time, both hosts at once (the second host's
        // first transfer did not wait behind the first host's), all byte-exact.
        for (index, task) in tasks.enumerated() {
            _ = try await task.result
            #expect(try SHA256Hex.of(file: out.file("f\(index)")) == Pattern.sha256Hex(count: 64 << 10, seed: 1))
        }
        #expect(timeline.mostAtOnce(host: "first") == 1)
        #expect(timeline.mostAtOnce(host: "second") == 1)
        #expect(timeline.mostAtOnce() == 2)
        #expect(timeline.startsBeforeAnyEnd(of: "second") == 1)
    }

    @Test func aWaitingTransferCancelledNeverStartsAndLeavesNothing() async throws {
        // Given a session that runs 1 transfer at once, busy with a slow download.
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        try Pattern.writeFile(at: www.file("slow"), count: 4 << 20, seed: 2)
        try Pattern.writeFile(at: www.file("next"), count: 1_000, seed: 3)
        let nginx = try NginxServer.start(root: www.url, limitRate: "256k")
        defer { nginx.stop() }
        let session = SessionManager(configuration: configuration(total: 1, perHost: nil))
        defer { session.invalidate() }
        let timeline = Timeline()
        let slow = session.downloadTask(with: Request(url: nginx.url("/slow")),
                                        to: DownloadDestination(directory: out.url, fileName: "slow"))
        let waiting = session.downloadTask(with: Request(url: nginx.url("/next")),
                                           to: DownloadDestination(directory: out.url, fileName: "next"))
        timeline.watch(slow, host: "one")
        timeline.watch(waiting, host: "one")
        slow.resume()
        waiting.resume()

        // When the waiting one is cancelled, then the slow one.
        waiting.cancel()
        let outcome = await waiting.outcome()
        slow.cancel()
        _ = await slow.outcome()

        // Then the waiting one ended cancelled without ever starting, and no file is left.
        guard case .failure(.cancelled) = outcome else {
            Issue.record("expected a cancelled outcome, got \(outcome)")
            return
        }
        #expect(waiting.state == .cancelled)
        #expect(timeline.startOrder == [slow.id])
        #expect(!FileManager.default.fileExists(atPath: out.file("next").path))
        #expect(!FileManager.default.fileExists(atPath: out.file("next.part").path))
    }
}
