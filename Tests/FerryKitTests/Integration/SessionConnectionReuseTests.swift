import FerryTestSupport
import Foundation
import Testing
@testable import FerryKit

/// A session keeps its idle connections for the next transfers: real engine, real libcurl,
/// the fault server on 127.0.0.1, which logs the client port of each request.
@Suite(.serialized) struct SessionConnectionReuseTests {
    @Test func aSecondWaveOfTransfersReusesTheConnectionsOfTheFirst() async throws {
        // Given a session running 16 transfers at once, and a first wave of 16 downloads of
        // 4 KiB to 64 KiB that the server holds after their headers and lets go on one at a
        // time, so that they end one after another.
        let server = try FaultServer.start()
        let out = try TemporaryDirectory()
        defer { server.stop(); out.remove() }
        var configuration = SessionConfiguration()
        configuration.maximumActiveTransfers = 16
        // A held transfer waits for the test, however long a busy machine makes that: it is
        // not a stall, and the server holds it up to 15 minutes (this async test may wait
        // minutes for a thread of the test process's cooperative pool while synchronous tests
        // that run processes hold both).
        configuration.lowSpeedTime = 900
        let session = SessionManager(configuration: configuration)
        defer { session.invalidate() }
        func size(_ index: Int) -> Int { (index % 16 + 1) * 4096 }
        func wave(_ number: Int, held: Bool) -> [TransferTask] {
            (0..<16).map { slot in
                let index = number * 16 + slot
                var parameters = ["seed": String(index)]
                if held { parameters["hold"] = "f\(index)"; parameters["hold_for"] = "900" }
                return session.downloadTask(with: Request(url: server.url("/bytes/\(size(index))", query: parameters)),
                                            to: DownloadDestination(directory: out.url, fileName: "f\(index)"))
            }
        }
        let first = wave(0, held: true)
        let second = wave(1, held: false)
        for task in first { task.resume() }
        // Every request of the first wave is at the server (each on a connection of its own)
        // before the first is let go; at most 5 minutes (a starved test process).
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(300)
        while try server.requests(prefix: "/bytes").count < 16, clock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }

        // When the first wave is let go one transfer at a time, each once the one before
        // ended, and the second wave of 16 starts the moment the last of the first ended, at
        // full speed. A thread of its own drives this, not the test's cooperative pool (which
        // a busy suite may hold for minutes, long enough for idle connections to age out).
        let driver = Thread {
            for (slot, task) in first.enumerated() {
                let ended = DispatchSemaphore(value: 0)
                task.onFinish { _ in ended.signal() }
                try? server.open(gate: "f\(slot)")
                _ = ended.wait(timeout: .now() + 900)
            }
            for task in second { task.resume() }
        }
        driver.name = "reuse-test-driver"
        driver.start()
        for task in first + second { _ = try await task.result }

        // Then every file is byte-exact, and the second wave came on the first wave's
        // connections: 16 in all (the engine's connection cache keeps as many idle ones as
        // its limits can use, and none waited long enough to age out).
        for index in 0..<32 {
            #expect(try SHA256Hex.of(file: out.file("f\(index)")) == Pattern.sha256Hex(count: size(index), seed: index))
        }
        let requests = try server.requests(prefix: "/bytes")
        #expect(requests.count == 32)
        #expect(Set(requests.map(\.clientPort)).count == 16)
    }
}
