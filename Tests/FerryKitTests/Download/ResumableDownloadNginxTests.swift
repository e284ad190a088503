import FerryTestSupport
import Foundation
import Synchronization
import Testing
@testable import FerryKit

/// Resumable downloads against nginx: real Range, If-Range and ETag (fault catalogue 1 and 10).
@Suite(.serialized) struct ResumableDownloadNginxTests {
    /// nginx's `/slow/` location: rate-limited to 1 MiB/s in 64 KiB pieces for requests that
    /// carry `X-Slow` (the interrupted first attempt), at full speed for the others.
    static let slowLocation = "location /slow/ { sendfile_max_chunk 64k; if ($http_x_slow) { set $limit_rate 1m; } }"

    /// Starts a slow download from nginx, stops it after at least `bytes` are durable, and
    /// returns what it would resume from.
    private func interruptedDownload(_ url: URL, into directory: URL, name: String, after bytes: Int64) async throws -> ResumeData {
        let session = SessionManager()
        defer { session.invalidate() }
        let log = CheckpointLog()
        // The cancel is sent from the checkpoint callback itself, so a busy test machine cannot
        // let the download finish before the test gets round to stopping it.
        let stopper = Mutex<ResumableDownload?>(nil)
        let download = ResumableDownload(
            session: session, request: Request(url: url, headers: ["X-Slow": "1"]), destination: DownloadDestination(directory: directory, fileName: name),
            policy: DownloadPolicy(checkpointInterval: 0.1), retryPolicy: RetryPolicy(retryLimit: 0),
            checkpoint: { data in
                log.record(data)
                if data.durableOffset >= bytes { stopper.withLock { $0 }?.cancel() }
            }
        )
        stopper.withLock { $0 = download }
        let running = Task { await download.run() }
        let outcome = await running.value
        stopper.withLock { $0 = nil }
        let reached = log.all.first { $0.durableOffset >= bytes }
        try #require(reached != nil, "no checkpoint reached \(bytes) bytes")
        guard case .failure(.cancelled) = outcome else {
            Issue.record("expected a cancelled download, got \(outcome)")
            throw CancellationError()
        }
        return try #require(download.resumeData)
    }

    private func accessLines(_ nginx: NginxServer, path: String) -> [[String]] {
        nginx.accessLog().split(separator: "\n").map { $0.split(separator: " ").map(String.init) }.filter { $0.count > 1 && $0[1] == path }
    }

    // Catalogue 1: the file is replaced on the server (same size, new ETag): If-Range makes it a 200 and the file restarts.
    @Test func fileChangedOnTheServerEndsWithItsCurrentBytes() async throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        let size = 8 << 20
        try FileManager.default.createDirectory(at: www.file("slow"), withIntermediateDirectories: true)
        let served = www.file("slow/f.bin")
        try Pattern.writeFile(at: served, count: size, seed: 1)
        let nginx = try NginxServer.start(root: www.url, extraConfig: Self.slowLocation)
        defer { nginx.stop() }
        let url = nginx.url("/slow/f.bin")

        // Given an interrupted download with durable bytes of the old version.
        let resume = try await interruptedDownload(url, into: out.url, name: "f.bin", after: 512 << 10)
        #expect(resume.etag != nil)
        #expect(try Data(contentsOf: out.file("f.bin.part")).count == Int(resume.durableOffset))

        // When the file is replaced by another of the same size and the download resumes.
        try Pattern.writeFile(at: served, count: size, seed: 2)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(3600)], ofItemAtPath: served.path)
        let run = await DownloadRun.run(url, into: out.url, name: "f.bin", resumeFrom: resume)

        // Then the resume asked with If-Range, got the whole new file, and the result is exactly it.
        #expect(run.error == nil)
        #expect(try SHA256Hex.of(file: out.file("f.bin")) == Pattern.sha256Hex(count: size, seed: 2))
        // nginx may log the interrupted first request after the resume: find the request with a Range.
        let last = try #require(accessLines(nginx, path: "/slow/f.bin").last { $0.count > 4 && $0[4] != "\"-\"" })
        #expect(last[2] == "200")
        #expect(last[4] == "\"bytes=\(resume.durableOffset)-\"")
        // nginx logs the quotes of the entity tag as \x22.
        #expect(last[5] == "\"" + (resume.etag ?? "").replacingOccurrences(of: "\"", with: "\\x22") + "\"")
    }

    // A resume of an unchanged file fetches only the rest (with the ETag, or with Last-Modified alone).
    @Test(arguments: [true, false])
    func unchangedFileResumesWithARange(_ useETag: Bool) async throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        let size = 6 << 20
        try FileManager.default.createDirectory(at: www.file("slow"), withIntermediateDirectories: true)
        try Pattern.writeFile(at: www.file("slow/f.bin"), count: size, seed: 3)
        let nginx = try NginxServer.start(root: www.url, extraConfig: Self.slowLocation)
        defer { nginx.stop() }
        let url = nginx.url("/slow/f.bin")
        var resume = try await interruptedDownload(url, into: out.url, name: "f.bin", after: 512 << 10)
        if !useETag { resume.etag = nil }
        #expect(resume.ifRange != nil)

        let run = await DownloadRun.run(url, into: out.url, name: "f.bin", resumeFrom: resume)

        #expect(run.error == nil)
        #expect(try SHA256Hex.of(file: out.file("f.bin")) == Pattern.sha256Hex(count: size, seed: 3))
        // nginx may log the interrupted first request after the resume: find the request with a Range.
        let last = try #require(accessLines(nginx, path: "/slow/f.bin").last { $0.count > 4 && $0[4] != "\"-\"" })
        #expect(last[2] == "206")
        #expect(Int64(last[3]) == Int64(size) - resume.durableOffset)
    }
}
