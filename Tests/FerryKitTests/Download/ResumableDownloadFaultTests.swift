import FerryTestSupport
import Foundation
import Testing
@testable import FerryKit

/// Resumable downloads against the fault server: fault catalogue items 2-9, 14, 15, 16-19.
@Suite(.serialized) struct ResumableDownloadFaultTests {
    let fault: FaultServer
    let out: TemporaryDirectory

    init() throws {
        fault = try FaultServer.start()
        out = try TemporaryDirectory()
    }

    private func plant(_ data: Data, as name: String) throws {
        try data.write(to: out.file(name + ".part"))
    }

    private func contents(_ name: String) -> Data? {
        try? Data(contentsOf: out.file(name))
    }

    // Catalogue 2: a server that ignores Range answers 200: the file restarts, never appends.
    @Test func serverIgnoringRangeEndsWithExactlyItsBytes() async throws {
        defer { fault.stop(); out.remove() }
        // Given a .part of 40 000 bytes that are not the server's (zeros) and a record for them.
        let n = 100_000
        try plant(Data(count: 40_000), as: "f.bin")
        let resume = ResumeData(etag: faultETag(n), totalLength: Int64(n), durableOffset: 40_000)

        // When resuming from a server that ignores Range.
        let run = await DownloadRun.run(fault.url("/bytes/\(n)", query: ["ignore_range": "1"]), into: out.url, name: "f.bin", resumeFrom: resume)

        // Then the file is exactly the server's bytes, after a request that did ask for a range.
        #expect(run.error == nil)
        #expect(contents("f.bin") == Pattern.bytes(count: n))
        #expect(try fault.requests(prefix: "/bytes").first?.header("Range") == "bytes=40000-")
        #expect(!FileManager.default.fileExists(atPath: out.file("f.bin.part").path))
    }

    // A first attempt has no old bytes for the journal to forget: no checkpoint at offset 0 is
    // written when it starts (thousands of small files would each pay a journal write), while a
    // restart over recorded bytes still records offset 0 before the old bytes are destroyed.
    @Test func onlyARestartOverRecordedBytesCheckpointsOffsetZero() async throws {
        defer { fault.stop(); out.remove() }
        let n = 50_000
        let fresh = await DownloadRun.run(fault.url("/bytes/\(n)"), into: out.url, name: "fresh.bin",
                                          policy: DownloadPolicy(checkpointInterval: nil))
        #expect(fresh.error == nil)
        #expect(contents("fresh.bin") == Pattern.bytes(count: n))
        #expect(!fresh.checkpoints.contains { $0.durableOffset == 0 })

        try plant(Data(count: 20_000), as: "again.bin")
        let recorded = ResumeData(etag: faultETag(n), totalLength: Int64(n), durableOffset: 20_000)
        let restarted = await DownloadRun.run(fault.url("/bytes/\(n)", query: ["ignore_range": "1"]), into: out.url,
                                              name: "again.bin", policy: DownloadPolicy(checkpointInterval: nil),
                                              resumeFrom: recorded)
        #expect(restarted.error == nil)
        #expect(contents("again.bin") == Pattern.bytes(count: n))
        #expect(restarted.checkpoints.first?.durableOffset == 0)
    }

    // Catalogue 3: a 206 whose start or total differs from what was asked is rejected; the .part is untouched.
    @Test(arguments: [["range_start_offset": "100"], ["range_total": "999999"]])
    func mismatchedPartialReplyIsRejected(_ lie: [String: String]) async throws {
        defer { fault.stop(); out.remove() }
        let n = 100_000
        let prefix = Pattern.bytes(count: 30_000)
        try plant(prefix, as: "f.bin")
        let resume = ResumeData(etag: faultETag(n), totalLength: Int64(n), durableOffset: 30_000)

        let run = await DownloadRun.run(fault.url("/bytes/\(n)", query: lie), into: out.url, name: "f.bin", resumeFrom: resume)

        guard case .integrity(.resumeRejected)? = run.error else {
            Issue.record("expected a rejected resume, got \(run.outcome)")
            return
        }
        #expect(contents("f.bin.part") == prefix)
        #expect(contents("f.bin") == nil)
        #expect(try fault.requests(prefix: "/bytes").count == 1)
    }

    // Catalogue 4: 416 with */N equal to the local length completes; any other length restarts.
    @Test func unsatisfiableRangeCompletesWhenTheLengthsAgree() async throws {
        defer { fault.stop(); out.remove() }
        let n = 50_000
        try plant(Pattern.bytes(count: n), as: "f.bin")
        let resume = ResumeData(etag: faultETag(n), totalLength: Int64(n), durableOffset: Int64(n))

        let run = await DownloadRun.run(fault.url("/bytes/\(n)"), into: out.url, name: "f.bin", resumeFrom: resume)

        #expect(run.error == nil)
        #expect(contents("f.bin") == Pattern.bytes(count: n))
        #expect(try fault.requests(prefix: "/bytes").count == 1)
    }

    @Test func unsatisfiableRangeOfAnotherLengthStartsOver() async throws {
        defer { fault.stop(); out.remove() }
        // Given 150 bytes on disk but a server file of 100 bytes.
        try plant(Pattern.bytes(count: 150, seed: 9), as: "f.bin")
        let resume = ResumeData(etag: faultETag(100), durableOffset: 150)

        let run = await DownloadRun.run(fault.url("/bytes/100"), into: out.url, name: "f.bin", resumeFrom: resume)

        #expect(run.error == nil)
        #expect(contents("f.bin") == Pattern.bytes(count: 100))
        let requests = try fault.requests(prefix: "/bytes")
        #expect(requests.count == 2)
        #expect(requests.last?.header("Range") == nil)
    }

    // Catalogue 5 and 9: dropped connections retry with backoff from the last durable offset.
    @Test func droppedConnectionsResumeFromTheDurableOffset() async throws {
        defer { fault.stop(); out.remove() }
        let n = 4 << 20
        let k = 1 << 20
        let url = fault.url("/bytes/\(n)", query: ["drop_after": "\(k)", "drop_times": "3", "key": "drops"])

        let run = await DownloadRun.run(url, into: out.url, name: "f.bin", policy: DownloadPolicy(checkpointInterval: nil))

        #expect(run.error == nil)
        #expect(try SHA256Hex.of(file: out.file("f.bin")) == Pattern.sha256Hex(count: n))
        #expect(run.delays == [1, 2, 4])
        let ranges = try fault.requests(prefix: "/bytes").map { $0.header("Range") }
        #expect(ranges == [nil, "bytes=\(k)-", "bytes=\(2 * k)-", "bytes=\(3 * k)-"])
        // Each drop ended with a checkpoint of everything received.
        #expect(run.checkpoints.map(\.durableOffset).filter { $0 > 0 }.prefix(3) == [Int64(k), Int64(2 * k), Int64(3 * k)])
    }

    @Test func errorPagesBetweenAttemptsNeverReachTheFile() async throws {
        defer { fault.stop(); out.remove() }
        let n = 200_000
        let url = fault.url("/status/503", query: ["key": "busy", "times": "2", "retry_after": "3", "then": "/bytes/\(n)"])

        let run = await DownloadRun.run(url, into: out.url, name: "f.bin")

        #expect(run.error == nil)
        #expect(contents("f.bin") == Pattern.bytes(count: n))
        #expect(run.delays == [3, 3])
        #expect(directoryListing(out.url) == ["f.bin"])
    }

    @Test func retryAfterIsCappedAndClientErrorsAreNotRetried() async throws {
        defer { fault.stop(); out.remove() }
        let capped = await DownloadRun.run(
            fault.url("/status/429", query: ["key": "cap", "times": "1", "retry_after": "100", "then": "/bytes/10"]),
            into: out.url, name: "a.bin", retryPolicy: RetryPolicy(maximumDelay: 5, jitter: 0))
        #expect(capped.error == nil)
        #expect(capped.delays == [5])

        for status in [400, 401, 403, 404, 410] {
            let run = await DownloadRun.run(fault.url("/status/\(status)"), into: out.url, name: "b.bin")
            guard case .validation(.unacceptableStatus(status, _, _, _))? = run.error else {
                Issue.record("\(status): \(run.outcome)")
                continue
            }
            #expect(run.delays.isEmpty)
        }
        for status in [408, 500, 502, 504] {
            let run = await DownloadRun.run(fault.url("/status/\(status)", query: ["key": "s\(status)", "times": "1", "then": "/bytes/10"]), into: out.url, name: "c\(status).bin")
            #expect(run.error == nil, "\(status)")
            #expect(run.delays == [1], "\(status)")
        }
        #expect(!directoryListing(out.url).contains("b.bin"))
    }

    @Test func retriesStopAtTheLimit() async throws {
        defer { fault.stop(); out.remove() }
        let run = await DownloadRun.run(fault.url("/status/503"), into: out.url, name: "f.bin", retryPolicy: RetryPolicy(retryLimit: 5, baseDelay: 1, maximumDelay: 10, jitter: 0))
        #expect(run.delays == [1, 2, 4, 8, 10])
        #expect(try fault.requests(prefix: "/status").count == 6)
        #expect(directoryListing(out.url).isEmpty)
    }

    // Catalogue 6: missing, negative, absurd or contradicting lengths are never a success.
    @Test(arguments: ["-5", "abc", "99999999999999999999", "1e6"])
    func invalidContentLengthIsAnError(_ claim: String) async throws {
        defer { fault.stop(); out.remove() }
        let run = await DownloadRun.run(fault.url("/bytes/1000", query: ["claim_length": claim]), into: out.url, name: "f.bin", retryPolicy: RetryPolicy(retryLimit: 0))
        #expect(run.error != nil)
        #expect(contents("f.bin") == nil)
    }

    @Test func aShortBodyIsATruncationThatResumes() async throws {
        defer { fault.stop(); out.remove() }
        let n = 300_000
        // The first reply claims more than it sends, then closes.
        let url = fault.url("/bytes/\(n)", query: ["claim_length": "\(n + 5000)", "drop_times": "1", "key": "short"])

        let once = await DownloadRun.run(url, into: out.url, name: "f.bin", retryPolicy: RetryPolicy(retryLimit: 0))
        #expect(once.error?.isTransient == true)
        #expect(contents("f.bin") == nil)

        let again = await DownloadRun.run(url, into: out.url, name: "f.bin", resumeFrom: once.resumeData)
        #expect(again.error == nil)
        #expect(contents("f.bin") == Pattern.bytes(count: n))
    }

    @Test func noLengthDownloadsToTheEnd() async throws {
        defer { fault.stop(); out.remove() }
        let run = await DownloadRun.run(fault.url("/bytes/70000", query: ["no_length": "1"]), into: out.url, name: "f.bin")
        #expect(run.error == nil)
        #expect(contents("f.bin") == Pattern.bytes(count: 70000))
    }

    // Catalogue 7: a stalled server is a transport error; the retry resumes.
    @Test func stalledTransferRetriesAndResumes() async throws {
        defer { fault.stop(); out.remove() }
        let n = 500_000
        var configuration = SessionConfiguration.default
        configuration.lowSpeedTime = 1
        let url = fault.url("/bytes/\(n)", query: ["stall_after": "200000", "stall_for": "30", "drop_times": "1", "key": "stall"])

        let run = await DownloadRun.run(url, into: out.url, name: "f.bin", configuration: configuration)

        #expect(run.error == nil)
        #expect(contents("f.bin") == Pattern.bytes(count: n))
        #expect(try fault.requests(prefix: "/bytes").last?.header("Range") == "bytes=200000-")
    }

    @Test func bytesAreCheckpointedWhileTheServerSendsNothing() async throws {
        defer { fault.stop(); out.remove() }
        // Given a server that sends 100 000 bytes at once, then nothing for 30 s.
        let session = SessionManager()
        defer { session.invalidate() }
        let log = CheckpointLog()
        let download = ResumableDownload(
            session: session, request: Request(url: fault.url("/bytes/400000", query: ["stall_after": "100000", "stall_for": "30"])),
            destination: DownloadDestination(directory: out.url, fileName: "f.bin"), policy: DownloadPolicy(checkpointInterval: 0.1),
            retryPolicy: RetryPolicy(retryLimit: 0), checkpoint: { log.record($0) }
        )
        let running = Task { await download.run() }

        // When no more bytes arrive, then a checkpoint still makes them durable (before any cancel).
        let durable = await log.first(timeout: 10) { $0.durableOffset == 100_000 }
        download.cancel()
        _ = await running.value

        #expect(durable != nil)
        #expect(try Data(contentsOf: out.file("f.bin.part")) == Pattern.bytes(count: 100_000))
    }

    // Catalogue 8: redirect loops stop at the hop cap and are not retried.
    @Test func redirectLoopStopsAtTheCap() async throws {
        defer { fault.stop(); out.remove() }
        let run = await DownloadRun.run(fault.url("/redirect-loop"), into: out.url, name: "f.bin")
        guard case .transport(.tooManyRedirects)? = run.error else {
            Issue.record("\(run.outcome)")
            return
        }
        #expect(run.delays.isEmpty)
        #expect(try fault.requests(prefix: "/redirect-loop").count <= 11)
    }

    // Catalogue 15: a checksum mismatch never takes the final name; a resumed download hashes its prefix.
    @Test func checksumMismatchKeepsTheFileFromItsName() async throws {
        defer { fault.stop(); out.remove() }
        let wrong = try ExpectedChecksum(algorithm: .sha256, hex: String(repeating: "0", count: 64))
        let run = await DownloadRun.run(fault.url("/bytes/5000"), into: out.url, name: "f.bin", policy: DownloadPolicy(expectedChecksum: wrong))
        guard case .integrity(.checksumMismatch(let algorithm, let expected, let actual))? = run.error else {
            Issue.record("\(run.outcome)")
            return
        }
        #expect(algorithm == "sha-256")
        #expect(expected == wrong.hex)
        #expect(actual == Pattern.sha256Hex(count: 5000))
        #expect(run.error?.kind == .checksum)
        #expect(directoryListing(out.url).isEmpty)
        #expect(run.delays.isEmpty)
    }

    @Test(arguments: ExpectedChecksum.Algorithm.allCases)
    func checksumAfterAResumeCoversThePrefix(_ algorithm: ExpectedChecksum.Algorithm) async throws {
        defer { fault.stop(); out.remove() }
        let n = 3 << 20
        let whole = Pattern.bytes(count: n)
        var hasher = ChecksumHasher(algorithm: algorithm)
        whole.withUnsafeBytes { hasher.update($0) }
        let expected = try ExpectedChecksum(algorithm: algorithm, hex: hasher.finalizeHex())
        try plant(whole.prefix(1 << 20), as: "f.bin")
        let resume = ResumeData(etag: faultETag(n), totalLength: Int64(n), durableOffset: 1 << 20)

        let run = await DownloadRun.run(fault.url("/bytes/\(n)"), into: out.url, name: "f.bin", policy: DownloadPolicy(expectedChecksum: expected), resumeFrom: resume)

        #expect(run.error == nil)
        #expect(contents("f.bin") == whole)
        #expect(try fault.requests(prefix: "/bytes").first?.header("Range") == "bytes=1048576-")
    }

    // Catalogue 16-18: hostile server names never land outside the directory nor overwrite anything.
    @Test func hostileContentDispositionNamesStayInTheDirectory() async throws {
        defer { fault.stop(); out.remove() }
        // The downloads go one level down, so the test's own directory is the parent to watch
        // (the system's temporary directory changes under parallel tests).
        let parent = out.url
        let inner = out.url.appendingPathComponent("inner", isDirectory: true)
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: false)
        let long = String(repeating: "x", count: 300) + ".bin"
        let headers = [
            "attachment; filename=\"../escape.bin\"",
            "attachment; filename=\"/etc/passwd\"",
            "attachment; filename=\".hidden\"",
            "attachment; filename*=UTF-8''evil%0D%0Aname%1B%5B2J.txt",
            "attachment; filename=\"\(long)\"",
            "attachment; filename=\"existing.txt\"",
        ]
        try Data("mine".utf8).write(to: inner.appendingPathComponent("existing.txt"))
        let before = directoryListing(parent)

        for (index, header) in headers.enumerated() {
            let run = await DownloadRun.run(fault.url("/bytes/100", query: ["cd": header, "seed": "\(index)"]), into: inner, name: "f\(index).bin", policy: DownloadPolicy(usesContentDisposition: true))
            let saved = try #require(try run.outcome.get().fileURL)
            #expect(saved.deletingLastPathComponent().standardizedFileURL == inner.standardizedFileURL)
            #expect(!saved.lastPathComponent.hasPrefix("."))
            #expect(saved.lastPathComponent.utf8.count <= 250)
            #expect(saved.lastPathComponent.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F })
            #expect(try Data(contentsOf: saved) == Pattern.bytes(count: 100, seed: index))
        }

        #expect(directoryListing(parent) == before)
        #expect(try String(contentsOf: inner.appendingPathComponent("existing.txt"), encoding: .utf8) == "mine")
        let names = Set(directoryListing(inner))
        #expect(names.isSuperset(of: ["escape.bin", "passwd", "hidden", "existing.txt", "existing.1.txt"]))
        #expect(names.contains { $0.hasPrefix("xxxx") && $0.hasSuffix(".bin") })
        #expect(names.allSatisfy { !$0.hasSuffix(".part") })
    }

    @Test func contentDispositionIsIgnoredUnlessAsked() async throws {
        defer { fault.stop(); out.remove() }
        let run = await DownloadRun.run(fault.url("/bytes/100", query: ["cd": "attachment; filename=\"server.bin\""]), into: out.url, name: "mine.bin")
        #expect(try run.outcome.get().fileURL?.lastPathComponent == "mine.bin")
    }

    // Catalogue 19: a symlink planted at NAME.part is never followed, also when resuming.
    @Test func plantedSymlinkIsNotFollowed() async throws {
        defer { fault.stop(); out.remove() }
        let victim = try TemporaryDirectory()
        defer { victim.remove() }
        try Data("precious".utf8).write(to: victim.file("target"))
        try FileManager.default.createSymbolicLink(atPath: out.file("f.bin.part").path, withDestinationPath: victim.file("target").path)
        let resume = ResumeData(etag: faultETag(1000), totalLength: 1000, durableOffset: 4)

        let run = await DownloadRun.run(fault.url("/bytes/1000"), into: out.url, name: "f.bin", resumeFrom: resume)

        #expect(run.error == nil)
        #expect(try String(contentsOf: victim.file("target"), encoding: .utf8) == "precious")
        #expect(contents("f.bin") == Pattern.bytes(count: 1000))
        #expect(try fault.requests(prefix: "/bytes").first?.header("Range") == nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: out.file("f.bin").path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    }

    @Test func partFilesAreCreatedOwnerOnly() async throws {
        defer { fault.stop(); out.remove() }
        // Given a download stopped after some bytes (kept for resuming).
        let url = fault.url("/bytes/400000", query: ["drop_after": "100000"])
        let run = await DownloadRun.run(url, into: out.url, name: "f.bin", retryPolicy: RetryPolicy(retryLimit: 0))
        #expect(run.error != nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: out.file("f.bin.part").path)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o600)
        #expect(run.resumeData?.durableOffset == 100_000)
        #expect(run.resumeData?.etag == faultETag(400_000))
        #expect(try Data(contentsOf: out.file("f.bin.part")) == Pattern.bytes(count: 100_000))
    }
}
