import FerryTestSupport
import Foundation
import Testing
@testable import FerryKit

/// A session keeps its idle connections for the next transfers: real engine, real libcurl,
/// the fault server on 127.0.0.1, which logs the client port of each request.
@Suite(.serialized) struct SessionConnectionReuseTests {
    @Test func aSecondWaveOfTransfersReusesTheConnectionsOfTheFirst() async throws {
        // Given a session running 16 transfers at once, and a first wave of 16 downloads of
        // 4 KiB to 64 KiB sent at 64 KiB/s, so that they end one after another (62 ms apart).
        let server = try FaultServer.start()
        let out = try TemporaryDirectory()
        defer { server.stop(); out.remove() }
        var configuration = SessionConfiguration()
        configuration.maximumActiveTransfers = 16
        let session = SessionManager(configuration: configuration)
        defer { session.invalidate() }
        func size(_ index: Int) -> Int { (index % 16 + 1) * 4096 }
        func wave(_ number: Int, query: [String: String]) async throws {
            let tasks = (0..<16).map { slot in
                let index = number * 16 + slot
                var parameters = query
                parameters["seed"] = String(index)
                return session.downloadTask(with: Request(url: server.url("/bytes/\(size(index))", query: parameters)),
                                            to: DownloadDestination(directory: out.url, fileName: "f\(index)"))
            }
            for task in tasks { task.resume() }
            for task in tasks { _ = try await task.result }
        }

        // When the first wave ends, and a second wave of 16 runs at full speed.
        try await wave(0, query: ["drip": "65536"])
        try await wave(1, query: [:])

        // Then every file is byte-exact, and the second wave came on the first wave's
        // connections: 16 in all. (libcurl's default cache holds four connections per
        // transfer still in the multi handle: it closed one as each of the first wave's last
        // three ended, and the second wave opened three again.)
        for index in 0..<32 {
            #expect(try SHA256Hex.of(file: out.file("f\(index)")) == Pattern.sha256Hex(count: size(index), seed: index))
        }
        let requests = try server.requests(prefix: "/bytes")
        #expect(requests.count == 32)
        #expect(Set(requests.map(\.clientPort)).count == 16)
    }
}
