import Foundation
import FerryTestSupport
import Testing

/// Proves the integration-test servers against a real client: `/usr/bin/curl`, run through
/// the harness's own process runner.
@Suite struct HarnessTests {
    /// Runs curl quietly, ignoring `~/.curlrc` and any proxy settings.
    func curl(_ arguments: [String], stdin: Data? = nil, timeout: Duration = .seconds(60)) throws -> ProcessResult {
        try run(
            executable: TestSupport.curlPath,
            arguments: ["-q", "--silent", "--show-error", "--noproxy", "*"] + arguments,
            stdin: stdin,
            timeout: timeout
        )
    }

    // MARK: nginx

    @Test func nginxServesRangesAndHonoursIfRange() throws {
        // Given a pattern file in a served tree
        let tree = try TemporaryDirectory(prefix: "ferry-www", worldReadable: true)
        defer { tree.remove() }
        let size = (1 << 20) + 123
        try Pattern.writeFile(at: tree.file("data.bin"), count: size, seed: 5)
        let nginx = try NginxServer.start(
            root: tree.url, extraConfig: "location = /moved { return 302 /data.bin; }"
        )
        defer { nginx.stop() }
        let work = try TemporaryDirectory()
        defer { work.remove() }
        let url = nginx.url("/data.bin").absoluteString

        // When curl asks for a range
        let ranged = try curl([
            "-r", "1000-1999", "-D", work.file("h1").path, "-o", work.file("part").path,
            "-w", "%{http_code}", url,
        ])

        // Then it gets exactly those bytes in a 206
        #expect(ranged.succeeded, "\(ranged.stderr)")
        #expect(ranged.stdout == "206")
        #expect(try Data(contentsOf: work.file("part")) == Pattern.bytes(count: 1000, seed: 5, offset: 1000))
        let headers = try String(contentsOf: work.file("h1"), encoding: .utf8)
        #expect(headers.contains("Content-Range: bytes 1000-1999/\(size)"))

        // When the If-Range validator does not match, the whole file comes back as 200
        let mismatch = try curl([
            "-r", "1000-", "-H", "If-Range: \"not-the-etag\"", "-o", work.file("full").path,
            "-w", "%{http_code}", url,
        ])
        #expect(mismatch.stdout == "200")
        #expect(try SHA256Hex.of(file: work.file("full")) == Pattern.sha256Hex(count: size, seed: 5))

        // A redirect from extraConfig works, and the access log saw the Range header
        let moved = try curl(["-L", "-o", "/dev/null", "-w", "%{http_code} %{num_redirects}", nginx.url("/moved").absoluteString])
        #expect(moved.stdout == "200 1")
        #expect(nginx.accessLog().contains("GET /data.bin 206 1000 \"bytes=1000-1999\""))
    }

    @Test func nginxLimitRateSlowsTheTransfer() throws {
        // Given nginx limited to 50 KiB/s and a 100 KiB file in a private (0700) tree,
        // which its workers can read because they run as the test's user
        let tree = try TemporaryDirectory(prefix: "ferry-www")
        defer { tree.remove() }
        try Pattern.writeFile(at: tree.file("slow.bin"), count: 100 * 1024, seed: 1)
        let nginx = try NginxServer.start(root: tree.url, limitRate: "50k")
        defer { nginx.stop() }

        // When curl downloads it
        let started = ContinuousClock.now
        let result = try curl(["-o", "/dev/null", "-w", "%{size_download}", nginx.url("/slow.bin").absoluteString])

        // Then all of it arrives, taking at least a second
        #expect(result.stdout == "102400")
        #expect(ContinuousClock.now - started >= .seconds(1))
    }

    @Test func serversStopIdempotently() throws {
        let fault = try FaultServer.start()
        #expect(Loopback.isAccepting(port: fault.port))
        fault.stop()
        fault.stop()
        #expect(!Loopback.isAccepting(port: fault.port))

        let tree = try TemporaryDirectory(worldReadable: true)
        defer { tree.remove() }
        let nginx = try NginxServer.start(root: tree.url)
        #expect(Loopback.isAccepting(port: nginx.port))
        nginx.stop()
        nginx.stop()
        #expect(!Loopback.isAccepting(port: nginx.port))
        #expect(!FileManager.default.fileExists(atPath: nginx.directory.path))
    }

    // MARK: fault server: /bytes

    @Test func bytesMatchThePatternInFullAndInRanges() throws {
        let server = try FaultServer.start()
        defer { server.stop() }
        let work = try TemporaryDirectory()
        defer { work.remove() }
        let size = 300_001
        let url = server.url("/bytes/\(size)?seed=7").absoluteString

        // Full body: the pattern, with the documented ETag
        let full = try curl(["-D", work.file("h").path, "-o", work.file("full").path, url])
        #expect(full.succeeded, "\(full.stderr)")
        #expect(try Data(contentsOf: work.file("full")) == Pattern.bytes(count: size, seed: 7))
        #expect(try String(contentsOf: work.file("h"), encoding: .utf8).contains("ETag: \"\(size)-7\""))

        // A range: 206 with the same bytes as the pattern at that offset
        let ranged = try curl(["-r", "4095-10000", "-o", work.file("part").path, "-w", "%{http_code}", url])
        #expect(ranged.stdout == "206")
        #expect(try Data(contentsOf: work.file("part")) == Pattern.bytes(count: 5906, seed: 7, offset: 4095))

        // Past the end: 416 with */n
        let past = try curl(["-r", "\(size)-", "-D", "-", "-o", "/dev/null", url])
        #expect(past.stdout.contains("416"))
        #expect(past.stdout.contains("Content-Range: bytes */\(size)"))

        // If-Range mismatch: full 200
        let changed = try curl(["-r", "10-", "-H", "If-Range: \"other\"", "-o", "/dev/null", "-w", "%{http_code} %{size_download}", url])
        #expect(changed.stdout == "200 \(size)")

        // A multi-MiB body hashes like the pattern (the Python and Swift formulas agree everywhere)
        let bigSize = 5 * (1 << 20) + 3
        let big = try curl(["-o", work.file("big").path, server.url("/bytes/\(bigSize)?seed=9").absoluteString])
        #expect(big.succeeded)
        #expect(try SHA256Hex.of(file: work.file("big")) == Pattern.sha256Hex(count: bigSize, seed: 9))
    }

    @Test func dropAfterGivesCurlAPartialTransferThenServesFully() throws {
        let server = try FaultServer.start()
        defer { server.stop() }
        let work = try TemporaryDirectory()
        defer { work.remove() }
        let url = server.url("/bytes/100000?seed=2&drop_after=4000&drop_times=1&key=once").absoluteString

        // First request: 4000 bytes, then the connection closes mid-body
        let first = try curl(["-o", work.file("first").path, url])
        #expect(first.exitStatus == 18, "curl: \(first.termination) \(first.stderr)")  // CURLE_PARTIAL_FILE
        #expect(try Data(contentsOf: work.file("first")) == Pattern.bytes(count: 4000, seed: 2))

        // Second request with the same key: the whole body
        let second = try curl(["-o", work.file("second").path, url])
        #expect(second.succeeded)
        #expect(try Data(contentsOf: work.file("second")) == Pattern.bytes(count: 100_000, seed: 2))
        #expect(try server.count(key: "once") == 2)
    }

    @Test func stallAndDripSlowTheClientDown() throws {
        let server = try FaultServer.start()
        defer { server.stop() }

        // A stalled body: curl's own deadline fires after the first 500 bytes
        let stalled = try curl(["--max-time", "2", "-o", "/dev/null", "-w", "%{size_download}",
                                server.url("/bytes/100000?stall_after=500").absoluteString])
        #expect(stalled.exitStatus == 28)  // CURLE_OPERATION_TIMEDOUT
        #expect(stalled.stdout == "500")

        // A drip-fed body: 600 bytes at 400 B/s take over a second and arrive intact
        let started = ContinuousClock.now
        let dripped = try curl(["-w", "%{size_download}", "-o", "/dev/null", server.url("/bytes/600?drip=400").absoluteString])
        #expect(dripped.stdout == "600")
        #expect(ContinuousClock.now - started >= .seconds(1))
    }

    // MARK: fault server: uploads

    @Test func sinkHashesWhatCurlUploads() throws {
        let server = try FaultServer.start()
        defer { server.stop() }
        let work = try TemporaryDirectory()
        defer { work.remove() }
        let file = work.file("upload.bin")
        let size = 4 * (1 << 20) + 17
        try Pattern.writeFile(at: file, count: size, seed: 11)
        let expected = SinkReply(length: size, sha256: try SHA256Hex.of(file: file))

        // PUT with Content-Length
        let put = try curl(["-T", file.path, server.url("/sink").absoluteString])
        #expect(try JSONDecoder().decode(SinkReply.self, from: put.standardOutput) == expected)

        // POST with chunked transfer-encoding
        let chunked = try curl(["-H", "Transfer-Encoding: chunked", "-H", "Content-Type: application/octet-stream",
                                "--data-binary", "@" + file.path, server.url("/sink").absoluteString])
        #expect(try JSONDecoder().decode(SinkReply.self, from: chunked.standardOutput) == expected)
    }

    @Test func multipartIsParsedByAnIndependentParser() throws {
        let server = try FaultServer.start()
        defer { server.stop() }
        let work = try TemporaryDirectory()
        defer { work.remove() }
        let file = work.file("upload.bin")
        try Pattern.writeFile(at: file, count: 200_000, seed: 3)

        // When curl sends a field and a file
        let result = try curl([
            "-F", "title=Hello wörld", "-F", "file=@\(file.path);type=application/x-ferry;filename=report.bin",
            server.url("/multipart").absoluteString,
        ])

        // Then the server's email parser sees both, byte for byte
        let reply = try JSONDecoder().decode(MultipartReply.self, from: result.standardOutput)
        #expect(reply.fields == ["title": "Hello wörld"])
        #expect(reply.parts == 2)
        #expect(reply.files == [MultipartReply.File(
            name: "file", filename: "report.bin", contentType: "application/x-ferry",
            length: 200_000, sha256: try SHA256Hex.of(file: file)
        )])

        // And a body that is not multipart is refused
        let broken = try curl(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Content-Type: multipart/form-data; boundary=xyz",
                               "--data-binary", "not multipart", server.url("/multipart").absoluteString])
        #expect(broken.stdout == "400")
    }

    @Test func rejectAnswersBeforeTheBody() throws {
        let server = try FaultServer.start()
        defer { server.stop() }
        let work = try TemporaryDirectory()
        defer { work.remove() }
        let file = work.file("big.bin")
        try Pattern.writeFile(at: file, count: 8 << 20, seed: 4)

        // When curl uploads 8 MiB to /reject/413 (curl sends Expect: 100-continue)
        let result = try curl(["-T", file.path, "-D", "-", "-o", "/dev/null", server.url("/reject/413").absoluteString])

        // Then it gets 413 without a 100 Continue, and the server read none of the body
        #expect(result.stdout.contains("HTTP/1.1 413"), "\(result.stdout) \(result.stderr)")
        #expect(!result.stdout.contains("100 Continue"))
        #expect(result.stdout.contains("Connection: close"))
        let logged = try server.requests(prefix: "/reject")
        #expect(logged.count == 1)
        #expect(logged.first?.bodyRead == 0)
        #expect(logged.first?.bodyComplete == false)
    }

    // MARK: fault server: status, redirects, echo, log

    @Test func logShowsTheHeadersCurlSent() throws {
        let server = try FaultServer.start()
        defer { server.stop() }
        _ = try curl(["-r", "10-20", "-H", "If-Range: \"100-0\"", "-H", "Authorization: Bearer t0ken",
                      "-o", "/dev/null", server.url("/bytes/100").absoluteString])
        _ = try curl(["-o", "/dev/null", server.url("/status/204").absoluteString])

        let logged = try server.requests(prefix: "/bytes")
        #expect(logged.count == 1)
        #expect(logged.first?.header("range") == "bytes=10-20")
        #expect(logged.first?.header("If-Range") == "\"100-0\"")
        #expect(logged.first?.header("Authorization") == "Bearer t0ken")
        #expect(try server.requests().count == 2)
    }

    @Test func statusThenServesTheFileAfterFailures() throws {
        let server = try FaultServer.start()
        defer { server.stop() }
        let url = server.url("/status/503", query: [
            "retry_after": "3", "key": "flaky", "times": "2", "then": "/bytes/10?seed=1",
        ]).absoluteString

        var codes: [String] = []
        for _ in 0..<3 {
            codes.append(try curl(["-o", "/dev/null", "-w", "%{http_code}", url]).stdout)
        }
        #expect(codes == ["503", "503", "200"])
        let retry = try curl(["-D", "-", "-o", "/dev/null", server.url("/status/429?retry_after=7").absoluteString])
        #expect(retry.stdout.contains("Retry-After: 7"))
    }

    @Test func redirectChainsEndAndLoopsDoNot() throws {
        let server = try FaultServer.start()
        defer { server.stop() }
        let chain = try curl(["-L", "-o", "/dev/null", "-w", "%{http_code} %{num_redirects}",
                              server.url("/redirect/3", query: ["to": "/bytes/10"]).absoluteString])
        #expect(chain.stdout == "200 3")
        let loop = try curl(["-L", "--max-redirs", "4", "-o", "/dev/null", server.url("/redirect-loop").absoluteString])
        #expect(loop.exitStatus == 47)  // CURLE_TOO_MANY_REDIRECTS
    }

    @Test func echoReportsMethodQueryHeadersAndBody() throws {
        let server = try FaultServer.start()
        defer { server.stop() }
        let result = try curl(["-X", "PATCH", "-H", "X-Ferry: 1", "-H", "X-Ferry: 2", "--data-binary", "hello",
                               server.url("/echo?a=1&b=%20").absoluteString])
        let echo = try JSONDecoder().decode(EchoReply.self, from: result.standardOutput)
        #expect(echo.method == "PATCH")
        #expect(echo.path == "/echo")
        #expect(echo.query == "a=1&b=%20")
        #expect(echo.headers.filter { $0.name == "X-Ferry" }.map(\.value) == ["1", "2"])
        #expect(echo.body == "hello")
        #expect(echo.bodySHA256 == SHA256Hex.of(data: Data("hello".utf8)))
    }
}
