import FerryTestSupport
import Foundation
import Synchronization
import Testing
@testable import FerryKit

/// Downloads through the real engine (libcurl) from a real nginx on 127.0.0.1.
@Suite(.serialized) struct SessionDownloadTests {
    @Test func concurrentDownloadsAreByteExact() async throws {
        // Given nginx serving 0 B, 1 MiB and 64 MiB files.
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        let sizes = ["empty.bin": 0, "one.bin": 1 << 20, "big.bin": 64 << 20]
        for (name, size) in sizes { try Pattern.writeFile(at: www.file(name), count: size, seed: size) }
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }

        // When all three download at once.
        let session = SessionManager()
        defer { session.invalidate() }
        let tasks = sizes.keys.sorted().map { name in
            session.downloadTask(with: Request(url: nginx.url("/" + name)), to: DownloadDestination(directory: out.url, fileName: name))
        }
        tasks.forEach { $0.resume() }

        // Then each ends completed with the server's exact bytes and no .part left.
        for (task, name) in zip(tasks, sizes.keys.sorted()) {
            let result = try await task.result
            #expect(task.state == .completed)
            #expect(result.fileURL == out.file(name))
            #expect(try SHA256Hex.of(file: out.file(name)) == SHA256Hex.of(file: www.file(name)))
            #expect(!FileManager.default.fileExists(atPath: out.file(name + ".part").path))
        }
    }

    @Test func progressIsMonotonicAndEndsAtTheTotal() async throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        let size = 64 << 20
        try Pattern.writeFile(at: www.file("big.bin"), count: size)
        let nginx = try NginxServer.start(root: www.url, limitRate: "128m")
        defer { nginx.stop() }
        let session = SessionManager()
        defer { session.invalidate() }
        let events = session.events()
        let task = session.downloadTask(with: Request(url: nginx.url("/big.bin")), to: DownloadDestination(directory: out.url, fileName: "big.bin"))

        task.resume()
        var snapshots: [TransferProgress] = []
        for await event in events {
            if case .progress(task.id, let progress) = event { snapshots.append(progress) }
            if case .completed(task.id, _) = event { break }
        }

        #expect(task.state == .completed)
        #expect(snapshots.count >= 2)
        #expect(zip(snapshots, snapshots.dropFirst()).allSatisfy { $0.receivedBytes <= $1.receivedBytes })
        #expect(snapshots.allSatisfy { ($0.expectedReceivedBytes ?? Int64(size)) == Int64(size) })
        #expect(snapshots.last?.receivedBytes == Int64(size))
        #expect(snapshots.last?.fractionCompleted == 1)
    }

    @Test func cancelMidTransferLeavesNothingBehind() async throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        try Pattern.writeFile(at: www.file("slow.bin"), count: 8 << 20)
        let nginx = try NginxServer.start(root: www.url, limitRate: "256k")
        defer { nginx.stop() }
        let session = SessionManager()
        defer { session.invalidate() }
        let events = session.events()
        let task = session.downloadTask(with: Request(url: nginx.url("/slow.bin")), to: DownloadDestination(directory: out.url, fileName: "slow.bin"))

        // Given a running download with some bytes on disk.
        task.resume()
        for await event in events {
            if case .progress(task.id, let progress) = event, progress.receivedBytes > 0 { break }
        }
        // When it is cancelled.
        task.cancel()
        let outcome = await task.outcome()

        // Then it ends cancelled, its delegate is gone, and neither the .part nor the file exists.
        #expect(task.state == .cancelled)
        #expect(throws: FerryError.cancelled) { try outcome.get() }
        #expect(session.delegate(for: task.id) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }

    @Test func pauseStopsTheFlowAndResumeFinishesIt() async throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        // 6 MiB at 1 MiB/s: a loaded machine still pauses it long before the end.
        try Pattern.writeFile(at: www.file("f.bin"), count: 6 << 20, seed: 3)
        let nginx = try NginxServer.start(root: www.url, limitRate: "1m")
        defer { nginx.stop() }
        let session = SessionManager()
        defer { session.invalidate() }
        let task = session.downloadTask(with: Request(url: nginx.url("/f.bin")), to: DownloadDestination(directory: out.url, fileName: "f.bin"))
        // Paused from the engine thread at the first bytes (an observer runs there), so a busy
        // machine starving the test's own threads cannot let the whole file through first.
        let paused = Mutex(false)
        let observer = session.observe { event in
            guard case .progress(task.id, let progress) = event, progress.receivedBytes > 0 else { return }
            let first = paused.withLock { done -> Bool in
                defer { done = true }
                return !done
            }
            if first { task.pause() }
        }
        defer { session.removeObserver(observer) }

        task.resume()
        for _ in 0..<3_000 where !paused.withLock({ $0 }) {  // at most 30 s
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(task.state == .paused)
        try await Task.sleep(for: .milliseconds(300))  // let in-flight bytes settle
        let before = task.progress.receivedBytes
        try await Task.sleep(for: .milliseconds(700))
        #expect(task.progress.receivedBytes - before < 64 * 1024)
        task.resume()
        _ = try await task.result
        #expect(task.state == .completed)
        #expect(try SHA256Hex.of(file: out.file("f.bin")) == Pattern.sha256Hex(count: 6 << 20, seed: 3))
    }

    @Test func errorPagesNeverReachTheFile() async throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let session = SessionManager()
        defer { session.invalidate() }

        let task = session.downloadTask(with: Request(url: nginx.url("/missing.bin")), to: DownloadDestination(directory: out.url, fileName: "missing.bin"))
        task.resume()
        let outcome = await task.outcome()

        guard case .failure(.validation(.unacceptableStatus(404, let reason, _, let body))) = outcome else {
            Issue.record("expected a 404 failure, got \(outcome)")
            return
        }
        #expect(reason == "Not Found")
        #expect(String(decoding: body ?? Data(), as: UTF8.self).contains("404"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }

    @Test func transportErrorsSayWhatHappened() async throws {
        let out = try TemporaryDirectory()
        defer { out.remove() }
        let session = SessionManager()
        defer { session.invalidate() }
        let port = try Loopback.freePort()

        let refused = session.downloadTask(with: Request(url: try Request.validatedURL("http://127.0.0.1:\(port)/x")), to: DownloadDestination(directory: out.url, fileName: "x"))
        refused.resume()
        let refusedOutcome = await refused.outcome()
        #expect(throws: FerryError.transport(.couldNotConnect(host: "127.0.0.1", port: port, reason: "connection refused"))) { try refusedOutcome.get() }

        let unresolvable = session.dataTask(with: Request(url: try Request.validatedURL("http://does-not-exist.invalid/x")))
        unresolvable.resume()
        let dnsOutcome = await unresolvable.outcome()
        #expect(throws: FerryError.transport(.couldNotResolveHost("does-not-exist.invalid"))) { try dnsOutcome.get() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }

    @Test func rawUploadOf64MiBArrivesByteExact() async throws {
        // Given a 64 MiB file and the fault server's hashing sink.
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let size = 64 << 20
        try Pattern.writeFile(at: dir.file("up.bin"), count: size, seed: 9)
        let server = try FaultServer.start()
        defer { server.stop() }
        let session = SessionManager()
        defer { session.invalidate() }

        // When it is PUT as the raw body.
        let task = session.uploadTask(with: Request(url: server.url("/sink")), body: .file(dir.file("up.bin")))
        task.resume()
        let result = try await task.result

        // Then the server received exactly those bytes, and upload progress counted all of them.
        let reply = try JSONSerialization.jsonObject(with: result.data ?? Data()) as? [String: Any]
        #expect(result.response.statusCode == 200)
        #expect(reply?["length"] as? Int == size)
        #expect(reply?["sha256"] as? String == Pattern.sha256Hex(count: size, seed: 9))
        #expect(task.progress.sentBytes == Int64(size))
    }
}
