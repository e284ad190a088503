import FerryTestSupport
import Foundation
import Synchronization
import Testing
@testable import FerryKit

/// Uploads through the real engine to the fault server (catalogue 28, 29).
@Suite(.serialized) struct UploadIntegrationTests {
    @Test func aFileThatShrinksDuringTheUploadFailsIt() async throws {
        // Given a 16 MiB file sent slowly (throttled to at most ~0.27 MiB/s, about a minute for
        // the whole file, so that even a loaded machine truncates it long before the last byte
        // has been read: the truncation ends the test at once).
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Pattern.writeFile(at: dir.file("moving.bin"), count: 16 << 20)
        let server = try FaultServer.start()
        defer { server.stop() }
        var form = MultipartFormData()
        try form.appendPart(fileURL: dir.file("moving.bin"), name: "f")
        form.throttle(bytesPerPacket: 16 * 1024, delay: .milliseconds(60))
        let session = SessionManager()
        defer { session.invalidate() }
        let task = session.uploadTask(with: form.applied(to: Request(url: server.url("/multipart"), method: .post)), body: form.requestBody)

        // When the file is truncated once sending has started: watched from a thread of its
        // own, since in a full parallel run the tests' shared executor threads can be busy for
        // longer than the whole throttled upload takes.
        let path = dir.file("moving.bin").path
        let truncation = Mutex<Int32?>(nil)
        let watched = DispatchSemaphore(value: 0)
        let watcher = Thread {
            let deadline = Date(timeIntervalSinceNow: 60)
            while task.progress.sentBytes == 0, Date() < deadline { usleep(5_000) }
            let result = truncate(path, 1 << 20)
            truncation.withLock { $0 = result }
            watched.signal()
        }
        watcher.start()
        task.resume()
        let outcome = await task.outcome()
        _ = watched.wait(timeout: .now() + 70)
        #expect(truncation.withLock { $0 } == 0, "the file was truncated while it was sent")

        // Then the upload fails with a clear reason; nothing truncated or padded was accepted.
        guard case .failure(.upload(.fileChanged(let path, let expected, _))) = outcome else {
            Issue.record("expected fileChanged, got \(outcome)")
            return
        }
        #expect(path == dir.file("moving.bin").path)
        #expect(expected == 16 << 20)
        let log = try server.requests(prefix: "/multipart")
        #expect(log.allSatisfy { !$0.bodyComplete })
    }

    @Test func aRawPostBodyGoesWithTheTypeTheRequestGivesOrNone() async throws {
        // Given a session and the fault server's echo.
        let server = try FaultServer.start()
        defer { server.stop() }
        let session = SessionManager()
        defer { session.invalidate() }
        func echo(_ body: RequestBody, contentType: String? = nil) async throws -> [HeaderField] {
            var request = Request(url: server.url("/echo"), method: .post)
            if let contentType { request.headers["Content-Type"] = contentType }
            let task = session.uploadTask(with: request, body: body)
            task.resume()
            let result = try await task.result
            return try JSONDecoder().decode(EchoReply.self, from: result.data ?? Data()).headers
        }

        // When a raw body is sent with POST without a Content-Type, and one with its own.
        let untyped = try await echo(.data(Data("raw bytes".utf8)))
        let typed = try await echo(.data(Data("{}".utf8)), contentType: "application/json")

        // Then the first carries none (libcurl's form type is not invented), the second
        // exactly its own.
        #expect(!untyped.contains { $0.name.lowercased() == "content-type" }, "\(untyped)")
        #expect(typed.filter { $0.name.lowercased() == "content-type" }.map(\.value) == ["application/json"], "\(typed)")
    }

    @Test func aZeroByteFileUploads() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Data().write(to: dir.file("zero.bin"))
        let server = try FaultServer.start()
        defer { server.stop() }
        let session = SessionManager()
        defer { session.invalidate() }

        let task = session.uploadTask(with: Request(url: server.url("/sink")), body: .file(dir.file("zero.bin")))
        task.resume()
        let result = try await task.result

        let reply = try JSONDecoder().decode(SinkReply.self, from: result.data ?? Data())
        #expect(reply == SinkReply(length: 0, sha256: SHA256Hex.of(data: Data())))
    }
}
