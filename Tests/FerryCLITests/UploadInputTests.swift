import FerryTestSupport
import Foundation
import Testing

/// Where an upload's body and headers come from: standard input and FIFOs streamed without a
/// hang in `open()` (catalogue 50), `-H @FILE` (secrets off the command line), and a redirect
/// that turns the upload into a GET taking the body's headers away with the body.
@Suite(.serialized) struct UploadInputTests {
    private func sinkReply(_ result: ProcessResult) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any]) ?? [:]
    }

    @Test func standardInputIsSentChunked() throws {
        // Given 3 MiB on standard input.
        let server = try FaultServer.start()
        defer { server.stop() }
        let state = try TemporaryDirectory(prefix: "ferry-state")
        defer { state.remove() }
        let environment = ProcessInfo.processInfo.environment.merging(["FERRY_STATE_DIR": state.path]) { $1 }

        // When `ferry put -T -` sends it.
        let result = try run(executable: try ferryExecutableURL().path, arguments: ["put", "-T", "-", server.url("/sink").absoluteString],
                             environment: environment, stdin: Pattern.bytes(count: 3 << 20, seed: 21), timeout: .seconds(60))

        // Then every byte arrived, with chunked transfer encoding (the length was unknown).
        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(sinkReply(result)["length"] as? Int == 3 << 20)
        #expect(sinkReply(result)["sha256"] as? String == Pattern.sha256Hex(count: 3 << 20, seed: 21))
        let logged = try server.requests(prefix: "/sink")
        #expect(logged.first?.header("Transfer-Encoding")?.lowercased() == "chunked")

        // And sent with POST as well, neither carries a Content-Type nobody gave (curl -T
        // sends none; libcurl alone would call a POST body a form).
        let posted = try run(executable: try ferryExecutableURL().path,
                             arguments: ["put", "-X", "POST", "-T", "-", server.url("/sink").absoluteString],
                             environment: environment, stdin: Data("a=b".utf8), timeout: .seconds(60))
        #expect(posted.exitStatus == 0, "\(posted.stderr)")
        let both = try server.requests(prefix: "/sink")
        #expect(both.map(\.method) == ["PUT", "POST"])
        #expect(both.allSatisfy { $0.header("Content-Type") == nil }, "\(both.map(\.headers))")
    }

    @Test func aFIFOIsOpenedWithoutWaitingForItsWriter() throws {
        // Given a FIFO nobody writes to yet.
        let dir = try TemporaryDirectory()
        let state = try TemporaryDirectory(prefix: "ferry-state")
        defer { dir.remove(); state.remove() }
        let fifo = dir.file("body.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        try Pattern.writeFile(at: dir.file("source.bin"), count: 2 << 20, seed: 22)
        let server = try FaultServer.start()
        defer { server.stop() }
        let environment = ProcessInfo.processInfo.environment.merging(["FERRY_STATE_DIR": state.path]) { $1 }

        // When `ferry put -T FIFO` starts, it holds the FIFO open (no open() waiting for a writer)...
        let ferry = try ChildProcess.spawn(executable: try ferryExecutableURL().path,
                                           arguments: ["put", "-T", fifo.path, server.url("/sink").absoluteString], environment: environment)
        defer { ferry.kill() }
        let opened = waitUntil(timeout: .seconds(20)) { holdsOpen(pid: ferry.pid, path: fifo.path) }
        #expect(opened, "ferry did not open the FIFO without a writer")

        // ...and a writer comes later.
        let writer = try ChildProcess.spawn(executable: "/bin/sh", arguments: ["-c", "cat \"$0\" > \"$1\"", dir.file("source.bin").path, fifo.path])
        defer { writer.kill() }
        let result = ferry.wait(timeout: .seconds(60))

        // Then what was written arrived whole.
        #expect(result?.exitStatus == 0, "\(result?.stderr ?? "still running")")
        #expect(result.map(sinkReply)?["sha256"] as? String == Pattern.sha256Hex(count: 2 << 20, seed: 22))
    }

    @Test func aTimeLimitEndsAnUploadWaitingOnAnEmptyFIFO() throws {
        // Given a FIFO nobody writes to.
        let dir = try TemporaryDirectory()
        let state = try TemporaryDirectory(prefix: "ferry-state")
        defer { dir.remove(); state.remove() }
        let fifo = dir.file("empty.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let server = try FaultServer.start()
        defer { server.stop() }

        // When `ferry put -m 1 -T FIFO` runs (the engine waits on the FIFO with its other
        // work instead of blocking in a read, so the limit can fire).
        let result = try runFerry(["put", "-m", "1", "-T", fifo.path, server.url("/sink").absoluteString], stateDirectory: state.url,
                                  timeout: .seconds(30))

        // Then it gives up as the limit says, with status 1.
        #expect(result.exitStatus == 1, "\(result.stderr)")
        #expect(result.stderr.contains("--max-time"), "\(result.stderr)")
    }

    @Test func aQueuedUploadTakesOnlyARegularFile() throws {
        let dir = try TemporaryDirectory()
        let state = try TemporaryDirectory(prefix: "ferry-state")
        defer { dir.remove(); state.remove() }
        let fifo = dir.file("body.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)

        let fromFIFO = try runFerry(["add", "--put", "-T", fifo.path, "http://127.0.0.1:9/up"], stateDirectory: state.url, timeout: .seconds(30))
        let fromStandardInput = try runFerry(["add", "--put", "-T", "-", "http://127.0.0.1:9/up"], stateDirectory: state.url, timeout: .seconds(30))

        #expect(fromFIFO.exitStatus == 2)
        #expect(fromFIFO.stderr.contains("regular file"))
        #expect(fromStandardInput.exitStatus == 2)
        #expect(try runFerry(["list"], stateDirectory: state.url).stdout.isEmpty)
    }

    @Test func aRedirectThatDropsTheBodyDropsItsHeaders() throws {
        let server = try FaultServer.start()
        defer { server.stop() }
        func echoed(_ result: ProcessResult) -> (method: String?, headers: [String: String]) {
            let reply = sinkReply(result)
            let headers = (reply["headers"] as? [[String]] ?? []).reduce(into: [String: String]()) { $0[$1[0].lowercased()] = $1[1] }
            return (reply["method"] as? String, headers)
        }

        // A multipart POST answered with 303, and a form POST answered with 302: both become GETs.
        let multipart = try runFerry(["put", "-F", "a=1", "-H", "X-Kept: yes", server.url("/redirect/1", query: ["to": "/echo", "code": "303"]).absoluteString])
        let form = try runFerry(["put", "--form", "a=1", server.url("/redirect/1", query: ["to": "/echo", "code": "302"]).absoluteString])
        // A 307 keeps the method, the body and its headers.
        let kept = try runFerry(["put", "-F", "a=1", server.url("/redirect/1", query: ["to": "/echo", "code": "307"]).absoluteString])

        for result in [multipart, form] {
            #expect(result.exitStatus == 0, "\(result.stderr)")
            #expect(echoed(result).method == "GET")
            #expect(echoed(result).headers["content-type"] == nil, "\(echoed(result).headers)")
            #expect(echoed(result).headers["content-length"] == nil)
        }
        #expect(echoed(multipart).headers["x-kept"] == "yes")
        #expect(echoed(kept).method == "POST")
        #expect(echoed(kept).headers["content-type"]?.hasPrefix("multipart/form-data") == true)
    }

    @Test func headersComeFromAFile() throws {
        // Given a header file with CRLF line ends and a blank line.
        let dir = try TemporaryDirectory()
        let state = try TemporaryDirectory(prefix: "ferry-state")
        defer { dir.remove(); state.remove() }
        try Data("X-Token: hdr-secret\r\n\r\nX-Plain: yes\n".utf8).write(to: dir.file("headers.txt"))
        let server = try FaultServer.start()
        defer { server.stop() }
        let headerFile = "@" + dir.file("headers.txt").path

        // When get, put and add take it with -H @FILE.
        let put = try runFerry(["put", "-H", headerFile, "--form", "a=1", server.url("/echo").absoluteString], stateDirectory: state.url)
        let get = try runFerry(["get", "-H", headerFile, "-d", dir.path, "-o", "echo.json", server.url("/echo").absoluteString], stateDirectory: state.url)
        let add = try runFerry(["add", "-H", headerFile, "-d", dir.path, server.url("/bytes/10").absoluteString], stateDirectory: state.url)
        let listed = try runFerry(["list", "--json"], stateDirectory: state.url)

        // Then each header line went to the server, and the secret one is masked when listed.
        #expect(put.exitStatus == 0, "\(put.stderr)")
        #expect(put.stdout.contains(#"["X-Token", "hdr-secret"]"#))
        #expect(put.stdout.contains(#"["X-Plain", "yes"]"#))
        #expect(get.exitStatus == 0, "\(get.stderr)")
        let saved = String(decoding: try Data(contentsOf: dir.file("echo.json")), as: UTF8.self)
        #expect(saved.contains(#"["X-Token", "hdr-secret"]"#))
        #expect(add.exitStatus == 0, "\(add.stderr)")
        #expect(listed.stdout.contains("X-Token: ***"))
        #expect(listed.stdout.contains("X-Plain: yes"))
        #expect(!listed.stdout.contains("hdr-secret"))

        // A missing header file is an input error.
        let missing = try runFerry(["put", "-H", "@" + dir.file("absent.txt").path, "--form", "a=1", server.url("/echo").absoluteString], stateDirectory: state.url)
        #expect(missing.exitStatus == 2)
        #expect(missing.stderr.contains("absent.txt"))
    }
}

/// `waitUntil(timeout:_:)` checks `condition` every 20 ms until it holds or `timeout` passes.
func waitUntil(timeout: Duration, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

/// `holdsOpen(pid:path:)` is true when process `pid` has a descriptor open on `path`.
func holdsOpen(pid: pid_t, path: String) -> Bool {
    let directory = "/proc/\(pid)/fd"
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return false }
    return entries.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\($0)")) == path }
}
