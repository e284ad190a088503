import FerryTestSupport
import Foundation
import Testing

/// Nothing lost, nothing leaked: the integrity, secret and naming failures found against
/// hostile and real servers (fault catalogue 34 and on), each against the real `ferry` binary.
@Suite(.serialized) struct IntegrityTests {
    private func ferry(_ arguments: [String], state: URL? = nil, timeout: Duration = .seconds(120)) throws -> ProcessResult {
        try runFerry(arguments, stateDirectory: state, timeout: timeout)
    }

    /// The same server under another origin (another host name): what a cross-origin redirect reaches.
    private func otherOrigin(_ fault: FaultServer, _ path: String, _ query: [String: String]) -> String {
        "http://localhost:\(fault.port)\(path)?\(FaultServer.encodeQuery(query))"
    }

    private static let secrets = ["Authorization: Bearer t0p-secret", "Cookie: session=c00kie", "X-Api-Token: k3y"]

    private func carriesSecrets(_ request: LoggedRequest) -> Bool {
        request.headers.contains { field in
            ["authorization", "cookie", "x-api-token"].contains(field.name.lowercased())
        }
    }

    // Catalogue 36: secrets go only to their origin, on the first request, the retry and the resume.
    @Test func secretsStayWithTheirOriginAcrossARedirectAndItsRetries() throws {
        let fault = try FaultServer.start()
        let out = try TemporaryDirectory()
        defer { fault.stop(); out.remove() }
        let n = 300_000
        // Given a URL that redirects to another origin, where the first reply drops mid-body.
        let target = otherOrigin(fault, "/bytes/\(n)", ["key": "s", "drop_times": "1", "drop_after": "100000"])
        let url = fault.url("/redirect/1", query: ["to": target])

        // When it is downloaded with secret headers (the retry resumes at the final URL).
        var arguments = ["get", "--retries", "3", "-d", out.path, "-o", "f.bin"]
        for header in Self.secrets { arguments += ["-H", header] }
        let result = try ferry(arguments + [url.absoluteString])

        // Then the file is whole, the origin got the secrets and the other origin never did.
        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: out.file("f.bin")) == Pattern.bytes(count: n))
        let redirects = try fault.requests(prefix: "/redirect")
        let downloads = try fault.requests(prefix: "/bytes")
        #expect(redirects.count == 1 && redirects.allSatisfy(carriesSecrets))
        #expect(downloads.count >= 2, "the drop should have caused a resume")
        #expect(!downloads.contains(where: carriesSecrets), "\(downloads.map(\.headers))")
        #expect(downloads.last?.headers.contains { $0.name.lowercased() == "range" } == true)
    }

    // Catalogue 36, the queue: a custom secret header is stripped on a cross-origin redirect too.
    @Test func queuedDownloadsKeepCustomSecretHeadersFromOtherOrigins() throws {
        let fault = try FaultServer.start()
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { fault.stop(); out.remove(); state.remove() }
        let url = fault.url("/redirect/2", query: ["to": otherOrigin(fault, "/bytes/5000", [:])])

        let added = try ferry(["add", "-d", out.path, "-o", "q.bin", "-H", "X-Api-Token: k3y", "-H", "Authorization: Basic dTpw",
                               url.absoluteString], state: state.url)
        #expect(added.exitStatus == 0, "\(added.stderr)")
        let resumed = try ferry(["resume"], state: state.url)

        #expect(resumed.exitStatus == 0, "\(resumed.stderr)")
        #expect(try Data(contentsOf: out.file("q.bin")) == Pattern.bytes(count: 5000))
        #expect(try fault.requests(prefix: "/redirect").allSatisfy(carriesSecrets))
        #expect(try !fault.requests(prefix: "/bytes").contains(where: carriesSecrets))
    }

    // Catalogue 34: a 206 to a request that asked for no range is an error, never a saved file.
    @Test func aPartialReplyNobodyAskedForIsAnError() throws {
        let fault = try FaultServer.start()
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { fault.stop(); out.remove(); state.remove() }
        let url = fault.url("/bytes/100000", query: ["partial_unasked": "1000"]).absoluteString

        let got = try ferry(["get", "-d", out.path, "-o", "g.bin", url])
        #expect(got.exitStatus == 1)
        #expect(got.stderr.contains("not asked for"), "\(got.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.file("g.bin").path))

        _ = try ferry(["add", "-d", out.path, "-o", "q.bin", url], state: state.url)
        let resumed = try ferry(["resume"], state: state.url)
        #expect(resumed.exitStatus == 1)
        #expect(!FileManager.default.fileExists(atPath: out.file("q.bin").path))

        // A 206 that covers the whole file is the file.
        let whole = fault.url("/bytes/100000", query: ["partial_unasked": "0"]).absoluteString
        let saved = try ferry(["get", "-d", out.path, "-o", "w.bin", whole])
        #expect(saved.exitStatus == 0, "\(saved.stderr)")
        #expect(try Data(contentsOf: out.file("w.bin")) == Pattern.bytes(count: 100_000))
    }

    // Catalogue 35: a server ignoring If-Range answers 206 for a changed file: the validators
    // of the reply tell, and the download starts over (ETag, and Last-Modified alone).
    @Test(arguments: [
        (["etag": "\"v1\""], ["etag": "\"v2\""]),
        (["etag": "none", "lastmod": "1000"], ["etag": "none", "lastmod": "2000"]),
    ])
    func aFileChangedBehindAnIgnoredIfRangeStartsOver(_ before: [String: String], _ after: [String: String]) throws {
        let fault = try FaultServer.start()
        let out = try TemporaryDirectory()
        defer { fault.stop(); out.remove() }
        let n = 200_000
        var changed = after
        changed["seed"] = "2"
        changed["ignore_if_range"] = "1"
        var first = before
        first["seed"] = "1"
        first["drop_after"] = "80000"
        first["key"] = "c"
        first["times"] = "1"
        first["then"] = "/bytes/\(n)?" + FaultServer.encodeQuery(changed)

        let result = try ferry(["get", "--retries", "3", "-d", out.path, "-o", "c.bin", fault.url("/bytes/\(n)", query: first).absoluteString])

        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect((try? Data(contentsOf: out.file("c.bin"))) == Pattern.bytes(count: n, seed: 2),
                "\((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []) \(result.stderr)")
        let ranged = try fault.requests(prefix: "/bytes").filter { $0.headers.contains { $0.name.lowercased() == "range" } }
        #expect(ranged.count == 1, "one resume, refused by its validators, then a fresh start")
    }

    // Catalogue 37: another process's .part is never deleted nor adopted; a planted hard link is
    // not taken for a committed download. The download takes the next free name, as every
    // download of the queue does (the other process will most likely save under the name its
    // .part has: sharing it, one would replace the other's file).
    @Test func partialFilesOfOthersAreNeverTouched() throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        try Pattern.writeFile(at: www.file("f.bin"), count: 150_000, seed: 7)
        try Pattern.writeFile(at: www.file("report.pdf"), count: 40_000, seed: 8)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let foreign = Data("another process is writing this".utf8)
        try foreign.write(to: out.file("f.bin.part"))
        let notes = Data("my notes".utf8)
        try notes.write(to: out.file("notes.txt"))
        #expect(link(out.file("notes.txt").path, out.file("report.pdf.part").path) == 0)

        let result = try ferry(["get", "-d", out.path, nginx.url("/f.bin").absoluteString, nginx.url("/report.pdf").absoluteString])

        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: out.file("f.1.bin")) == Pattern.bytes(count: 150_000, seed: 7))
        #expect(try Data(contentsOf: out.file("report.1.pdf")) == Pattern.bytes(count: 40_000, seed: 8))
        #expect(try Data(contentsOf: out.file("f.bin.part")) == foreign)
        #expect(try Data(contentsOf: out.file("notes.txt")) == notes)
        #expect(try Data(contentsOf: out.file("report.pdf.part")) == notes)
        let left = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(left == ["f.1.bin", "f.bin.part", "notes.txt", "report.1.pdf", "report.pdf.part"])
    }

    // Catalogue 38: --overwrite replaces only the name asked for, never another task's file.
    @Test func overwriteInTheQueueReplacesOnlyTheNameAskedFor() throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        // Two files both saved as c.bin, large enough (at 1 MB/s) that both tasks run at once
        // and the first, smaller one ends first: before the fix the --overwrite task, numbered
        // because the first wrote c.bin.part, then replaced the first task's finished file.
        try FileManager.default.createDirectory(at: www.file("big"), withIntermediateDirectories: true)
        try Pattern.writeFile(at: www.file("c.bin"), count: 2_000_000, seed: 3)
        try Pattern.writeFile(at: www.file("big/c.bin"), count: 3_000_000, seed: 4)
        try Data("the user's own".utf8).write(to: out.file("c.bin"))
        let nginx = try NginxServer.start(root: www.url, limitRate: "1m")
        defer { nginx.stop() }

        // Given a task saving c.bin and an --overwrite task of the same name queued behind it.
        #expect(try ferry(["add", "-d", out.path, nginx.url("/c.bin").absoluteString], state: state.url).exitStatus == 0)
        #expect(try ferry(["add", "--overwrite", "-d", out.path, nginx.url("/big/c.bin").absoluteString], state: state.url).exitStatus == 0)
        let resumed = try ferry(["resume", "--max-concurrent", "2"], state: state.url)
        #expect(resumed.exitStatus == 0, "\(resumed.stderr)")

        // Then each task has a file of its own, whole, and no task's file was replaced.
        let listed = try ferry(["list", "--json"], state: state.url)
        let paths = listed.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object["final_path"] as? String
        }
        #expect(paths.count == 2 && Set(paths).count == 2, "\(listed.stdout)")
        let contents = try Set(paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) })
        #expect(contents == [Pattern.bytes(count: 2_000_000, seed: 3), Pattern.bytes(count: 3_000_000, seed: 4)])
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { !$0.hasSuffix(".part") }
        #expect(names.count == 2 || names.count == 3, "\(names)")
    }

    // Catalogue 43 and failure 11: a cap is a cap from the first second, and never a stall.
    @Test func aSpeedCapHoldsFromTheFirstSecond() throws {
        let fault = try FaultServer.start()
        let out = try TemporaryDirectory()
        defer { fault.stop(); out.remove() }
        let n = 1_500_000
        let started = Date()

        let result = try ferry(["get", "--limit-rate", "500K", "--low-speed-time", "2", "-d", out.path, "-o", "r.bin",
                                fault.url("/bytes/\(n)", query: ["ignore_range": "1"]).absoluteString])

        let seconds = Date().timeIntervalSince(started)
        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: out.file("r.bin")) == Pattern.bytes(count: n))
        // 1.5 MB at 500 KiB/s is about 2.9 s: a burst at full speed would be far shorter.
        #expect(seconds >= 2.4, "took \(seconds) s")
        #expect(!result.stderr.contains("stalled") && !result.stderr.contains("retry"), "\(result.stderr)")
        #expect(try fault.requests(prefix: "/bytes").count == 1)
    }

    // Catalogue 43: a server feeding a few bytes a second is abandoned after the low-speed time.
    @Test func aDripFedServerIsAbandonedAfterTheLowSpeedTime() throws {
        let fault = try FaultServer.start()
        let out = try TemporaryDirectory()
        defer { fault.stop(); out.remove() }

        let result = try ferry(["get", "--retries", "0", "--low-speed-limit", "1K", "--low-speed-time", "2", "-d", out.path, "-o", "d.bin",
                                fault.url("/bytes/100000", query: ["drip": "100"]).absoluteString], timeout: .seconds(60))

        #expect(result.exitStatus == 1)
        #expect(result.stderr.contains("stalled"), "\(result.stderr)")
    }

    // Catalogue 44: attempts that moved the download on do not spend the retry budget.
    @Test func aServerDroppingEveryFewHundredKilobytesStillDelivers() throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        let n = 2_000_000
        // Every request to the fault server drops after 400 KB; a range starts where it asks.
        // Five attempts, four retries with --retries 2: the delay between attempts still grows
        // with each (1, 2, 4, 8 s, less jitter), so more drops would mostly test the clock.
        let fault = try FaultServer.start()
        defer { fault.stop() }

        let result = try ferry(["get", "--retries", "2", "-d", out.path, "-o", "p.bin",
                                fault.url("/bytes/\(n)", query: ["drop_after": "400000"]).absoluteString], timeout: .seconds(180))

        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: out.file("p.bin")) == Pattern.bytes(count: n))
        #expect(try fault.requests(prefix: "/bytes").count >= 5)
    }

    // Messages: replies that break HTTP are named for what they are and not retried.
    @Test(arguments: [
        (["huge_header": "10000000"], "a header is too large"),
        (["claim_length": "-5"], "Content-Length"),
        (["bad_chunked": "1"], "malformed chunked encoding"),
    ])
    func repliesThatBreakHTTPAreNamedAndNotRetried(_ fault: [String: String], _ message: String) throws {
        let server = try FaultServer.start()
        let out = try TemporaryDirectory()
        defer { server.stop(); out.remove() }

        let result = try ferry(["get", "--retries", "3", "-d", out.path, "-o", "x.bin", server.url("/bytes/5000", query: fault).absoluteString])

        #expect(result.exitStatus == 1)
        #expect(result.stderr.contains("not valid HTTP") && result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("retrying") && !result.stderr.contains("out of memory"), "\(result.stderr)")
        #expect(try server.requests(prefix: "/bytes").count == 1)
        #expect(!FileManager.default.fileExists(atPath: out.file("x.bin").path))
    }
}
