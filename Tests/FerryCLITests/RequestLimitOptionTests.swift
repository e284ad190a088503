import FerryTestSupport
import Foundation
import Testing

/// curl's `-A/--user-agent`, `-e/--referer`, `--connect-timeout` and `-m/--max-time` on
/// `ferry get` and `ferry put`, against the fault server.
@Suite struct RequestLimitOptionTests {
    private static func header(_ name: String, of request: LoggedRequest) -> [String] {
        request.headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    @Test func getSendsTheUserAgentAndRefererGiven() throws {
        let server = try FaultServer.start()
        let out = try TemporaryDirectory()
        defer { server.stop(); out.remove() }

        let result = try runFerry(["get", "-q", "-A", "Agent/7 (test)", "-e", "https://example.com/from",
                                   "-H", "User-Agent: replaced", "-d", out.path, server.url("/bytes/100").absoluteString])

        #expect(result.exitStatus == 0, "\(result.stderr)")
        let request = try #require(try server.requests(prefix: "/bytes").first)
        #expect(Self.header("User-Agent", of: request) == ["Agent/7 (test)"])
        #expect(Self.header("Referer", of: request) == ["https://example.com/from"])
    }

    @Test func putSendsTheUserAgentAndRefererGiven() throws {
        let server = try FaultServer.start()
        let files = try TemporaryDirectory()
        defer { server.stop(); files.remove() }
        let body = files.file("body.txt").path
        try Data("hello\n".utf8).write(to: files.file("body.txt"))

        let result = try runFerry(["put", "-q", "--user-agent", "Uploader/2", "--referer", "https://example.com/form",
                                   "-T", body, server.url("/echo").absoluteString])

        #expect(result.exitStatus == 0, "\(result.stderr)")
        let request = try #require(try server.requests(prefix: "/echo").first)
        #expect(Self.header("User-Agent", of: request) == ["Uploader/2"])
        #expect(Self.header("Referer", of: request) == ["https://example.com/form"])
        #expect(result.stdout.contains("Uploader/2"), "\(result.stdout)")
    }

    @Test func badTimeLimitsAreUsageErrorsAndNothingIsSent() throws {
        let server = try FaultServer.start()
        let files = try TemporaryDirectory()
        defer { server.stop(); files.remove() }
        let body = files.file("body.txt").path
        try Data("hello\n".utf8).write(to: files.file("body.txt"))
        let url = server.url("/echo").absoluteString

        for limit in [["--connect-timeout", "0"], ["--connect-timeout", "soon"], ["-m", "-1"], ["--max-time", "nan"]] {
            let get = try runFerry(["get", "-q", "-d", files.path] + limit + [url])
            let put = try runFerry(["put", "-q", "-T", body] + limit + [url])
            #expect(get.exitStatus == 2 && put.exitStatus == 2, "\(limit): \(get.stderr) \(put.stderr)")
            #expect(get.stderr.contains(limit[0]) && put.stderr.contains(limit[0]), "\(get.stderr) \(put.stderr)")
        }
        let fine = try runFerry(["put", "-q", "--connect-timeout", "2.5", "-m", "30", "-T", body, url])
        #expect(fine.exitStatus == 0, "\(fine.stderr)")
        #expect(try server.requests(prefix: "/echo").count == 1)
    }

    @Test func getGivesUpAtTheMaximumTimeWithoutRetrying() throws {
        let server = try FaultServer.start()
        let out = try TemporaryDirectory()
        defer { server.stop(); out.remove() }
        // 1 MiB at 2 KB/s: over eight minutes unless -m ends it.
        let url = server.url("/bytes/1048576?drip=2000").absoluteString

        let began = ContinuousClock.now
        let result = try runFerry(["get", "-m", "1", "-d", out.path, url], timeout: .seconds(60))
        let took = ContinuousClock.now - began

        #expect(result.exitStatus == 1, "\(result.stderr)")
        #expect(result.stderr.contains("gave up after 1 s (--max-time)"), "\(result.stderr)")
        #expect(took < .seconds(10), "\(took)")
        #expect(try server.requests(prefix: "/bytes").count == 1)
    }
}
