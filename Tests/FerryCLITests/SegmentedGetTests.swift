import FerryTestSupport
import Foundation
import Testing

/// Issue 27 and fault catalogue 47: `ferry get -x N` fetches one file over several
/// connections, each validated (`Range` with `If-Range`), and survives the servers that
/// corrupt other tools' downloads: a 200 to a range, a per-client connection cap, a file
/// replaced mid-download, a trickling connection, and SIGKILL at ten moments.
@Suite(.serialized) struct SegmentedGetTests {
    private func ferry(_ arguments: [String], state: TemporaryDirectory, timeout: Duration = .seconds(120)) throws -> ProcessResult {
        try run(executable: try ferryExecutableURL().path, arguments: arguments + ["--state-dir", state.file("state").path], timeout: timeout)
    }

    /// `rangedRequests(_:)` are the access log lines of GET requests that carried a Range.
    private static func rangedRequests(_ log: String) -> [Substring] {
        log.split(separator: "\n").filter { $0.hasPrefix("GET ") && $0.contains("\"bytes=") }
    }

    /// `bodyBytes(_:)` is the sum of the body bytes nginx sent, by its access log.
    private static func bodyBytes(_ log: String) -> Int {
        log.split(separator: "\n").reduce(0) { sum, line in
            let fields = line.split(separator: " ")
            return sum + (fields.count > 3 ? Int(fields[3]) ?? 0 : 0)
        }
    }

    private static func events(_ output: Data) -> [[String: Any]] {
        String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    private static func received(_ output: Data) -> Int64 {
        events(output).compactMap { ($0["received"] as? NSNumber)?.int64Value }.max() ?? 0
    }

    @Test(arguments: [1, 2, 8, 16])
    func byteExactOverNginxWithConnections(_ connections: Int) throws {
        // Given 24 MiB behind nginx capped at 4 MB/s per connection.
        let size = 24 << 20
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("f.bin"), count: size, seed: 7)
        let nginx = try NginxServer.start(root: www.url, limitRate: "4m")
        defer { nginx.stop() }

        // When it is fetched with N connections.
        let result = try ferry(["get", "-x", "\(connections)", "--min-split-size", "1M", "-d", state.file("out").path,
                                nginx.url("/f.bin").absoluteString], state: state)

        // Then the file is byte-exact, and the ranged requests, each with If-Range, are at
        // least N - 1 (none for one connection).
        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(try SHA256Hex.of(file: state.file("out/f.bin")) == Pattern.sha256Hex(count: size, seed: 7))
        let ranged = Self.rangedRequests(nginx.accessLog())
        if connections == 1 {
            #expect(ranged.isEmpty, "\(ranged)")
        } else {
            #expect(ranged.count >= connections - 1, "\(nginx.accessLog())")
            #expect(ranged.allSatisfy { $0.contains(" 206 ") }, "\(ranged)")
            #expect(!ranged.contains { $0.contains("\" \"-\" ") }, "every range carries If-Range: \(ranged)")
            // Every range is claimed before its request goes out, so the replies to ranges end
            // where their ranges end: no byte is sent twice (but for one end-game cut at most).
            let rangedBytes = Self.bodyBytes(ranged.joined(separator: "\n"))
            #expect(rangedBytes >= size - (size / connections) && rangedBytes <= size + (2 << 20), "\(nginx.accessLog())")
        }
        #expect(!FileManager.default.fileExists(atPath: state.file("out/f.bin.part").path))
    }

    @Test func killedEightConnectionGetsResumeEveryRangeByteExactWithAnotherN() throws {
        // Given 48 MiB behind nginx at 2 MB/s per connection.
        let size = 48 << 20
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("k.bin"), count: size, seed: 11)
        let nginx = try NginxServer.start(root: www.url, limitRate: "2m")
        defer { nginx.stop() }
        let url = nginx.url("/k.bin").absoluteString
        let arguments = ["get", "-x", "8", "--min-split-size", "1M", "--json", "-d", state.file("out").path, url,
                         "--state-dir", state.file("state").path]

        // When `ferry get -x 8` is killed with SIGKILL at several moments and run again.
        var kills = 0
        for moment in [1, 3, 6, 9, 12, 16, 20, 25, 30, 36] {
            let child = try ChildProcess.spawn(executable: try ferryExecutableURL().path, arguments: arguments)
            defer { child.kill() }
            let threshold = Int64(moment) << 20
            guard child.waitForOutput(timeout: .seconds(60), until: { Self.received($0) >= threshold || Self.events($0).contains { $0["event"] as? String == "ended" } }) else {
                Issue.record("never reached \(moment) MiB: \(String(decoding: child.standardError, as: UTF8.self))")
                return
            }
            if Self.events(child.standardOutput).contains(where: { $0["event"] as? String == "ended" }) { break }
            child.signal(SIGKILL)
            #expect(child.wait(timeout: .seconds(10))?.signal == SIGKILL)
            kills += 1
        }
        // Between runs, the journal shows the file's pieces as aria2 does (48 pieces of 1 MiB).
        let listed = try ferry(["list", "--json"], state: state)
        let task = try #require(Self.events(listed.standardOutput).first)
        #expect((task["num_pieces"] as? NSNumber)?.intValue == 48 && (task["piece_length"] as? NSNumber)?.intValue == 1 << 20, "\(task)")
        #expect((task["bitfield"] as? String)?.count == 12, "\(task)")
        #expect((task["bitfield"] as? String).map { $0 != String(repeating: "0", count: 12) } == true, "\(task)")

        // The last run resumes with another number of connections.
        let last = try ferry(["get", "-x", "3", "--min-split-size", "1M", "-d", state.file("out").path, url], state: state)

        // Then the file is byte-exact and the bytes fetched again are bounded: at most about
        // one checkpoint interval (1 s at 2 MB/s) per connection per kill, plus the slack of
        // connections cut mid-request.
        #expect(last.exitStatus == 0, "\(last.stderr)")
        #expect(try SHA256Hex.of(file: state.file("out/k.bin")) == Pattern.sha256Hex(count: size, seed: 11))
        let sent = Self.bodyBytes(nginx.accessLog())
        #expect(kills >= 5)
        #expect(sent - size <= kills * 8 * (3 << 20), "refetched \(sent - size) bytes over \(kills) kills")
    }

    @Test func aServerAnsweringTwoHundredToRangesGivesAWholeFile() throws {
        let fault = try FaultServer.start()
        let state = try TemporaryDirectory()
        defer { fault.stop(); state.remove() }
        let size = 6 << 20
        // Given a server that says Accept-Ranges yet answers every range with the full 200, slowly.
        let url = fault.url("/bytes/\(size)", query: ["range_200": "1", "seed": "3", "drip": "\(8 << 20)"])

        let result = try ferry(["get", "-x", "4", "--min-split-size", "1M", "-d", state.file("out").path, "-o", "r.bin",
                                url.absoluteString], state: state)

        // Then the 200s were never written into the file: it is whole and exact.
        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(try SHA256Hex.of(file: state.file("out/r.bin")) == Pattern.sha256Hex(count: size, seed: 3))
        #expect(try fault.requests(prefix: "/bytes").count >= 2, "a range should have been asked for")
    }

    @Test func aServerAllowingTwoConnectionsPerClientGivesAWholeFile() throws {
        let size = 16 << 20
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("c.bin"), count: size, seed: 5)
        // Given nginx that allows two connections per client and answers 503 to the rest (in
        // sends of 256 KiB: its default first send of 2 MiB would end each 2 MiB range at once,
        // before the next connection came, and the cap would never be met).
        let nginx = try NginxServer.start(root: www.url, limitRate: "4m",
                                          extraConfig: "limit_conn perip 2; limit_conn_status 503; sendfile_max_chunk 256k;",
                                          httpConfig: "limit_conn_zone $binary_remote_addr zone=perip:1m;")
        defer { nginx.stop() }

        let result = try ferry(["get", "-x", "8", "--min-split-size", "1M", "-d", state.file("out").path,
                                nginx.url("/c.bin").absoluteString], state: state)

        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(try SHA256Hex.of(file: state.file("out/c.bin")) == Pattern.sha256Hex(count: size, seed: 5))
        #expect(nginx.accessLog().contains(" 503 "), "the cap should have been met: \(nginx.accessLog())")
    }

    @Test func aFileReplacedMidDownloadEndsAsTheNewFile() throws {
        let size = 8 << 20
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("v.bin"), count: size, seed: 1)
        // Given nginx that serves the first request (no Range) and the first range at 1 MB/s and
        // the other ranges at 256 KB/s, so that the connection of the first range ends its half
        // early and asks for another range later.
        let nginx = try NginxServer.start(root: www.url, extraConfig: "limit_rate $ferry_rate;",
                                          httpConfig: "map $http_range $ferry_rate { \"\" 1m; \"~^bytes=0-\" 1m; default 256k; }")
        defer { nginx.stop() }
        let child = try ChildProcess.spawn(executable: try ferryExecutableURL().path, arguments: [
            "get", "-x", "2", "--min-split-size", "256K", "--json", "-d", state.file("out").path,
            nginx.url("/v.bin").absoluteString, "--state-dir", state.file("state").path,
        ])
        defer { child.kill() }
        try #require(child.waitForOutput(timeout: .seconds(60)) { Self.received($0) >= 1 << 20 })

        // When the file is replaced on the server: same size, new content, another mtime (a new ETag).
        try Pattern.writeFile(at: www.file("v.new"), count: size, seed: 2)
        var times = [timespec(tv_sec: time(nil) + 100, tv_nsec: 0), timespec(tv_sec: time(nil) + 100, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, www.file("v.new").path, &times, 0) == 0)
        try #require(rename(www.file("v.new").path, www.file("v.bin").path) == 0)
        let result = child.wait(timeout: .seconds(120))

        // Then the next range's If-Range no longer matches, and the download ends as the new file, never a mix.
        #expect(result?.exitStatus == 0, "\(String(decoding: child.standardError, as: UTF8.self))")
        #expect(try SHA256Hex.of(file: state.file("out/v.bin")) == Pattern.sha256Hex(count: size, seed: 2))
        #expect(nginx.accessLog().split(separator: "\n").contains { $0.contains(" 200 ") && !$0.contains("\"-\" \"-\"") },
                "a range should have met the new file: \(nginx.accessLog())")
    }

    @Test func aTricklingConnectionHasItsRangeTakenOver() throws {
        let fault = try FaultServer.start()
        let state = try TemporaryDirectory()
        defer { fault.stop(); state.remove() }
        let size = 8 << 20
        // Given a server that sends the first range past zero at 20 KB/s, the rest at full speed.
        let url = fault.url("/bytes/\(size)", query: ["seed": "9", "drip_range": "20000", "key": "t", "drip": "\(16 << 20)"])

        let started = ContinuousClock.now
        let result = try ferry(["get", "-x", "4", "--min-split-size", "1M", "-d", state.file("out").path, "-o", "t.bin",
                                url.absoluteString], state: state, timeout: .seconds(90))

        // Then the file is exact and did not wait for the trickle (2 MiB at 20 KB/s is 100 s).
        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(try SHA256Hex.of(file: state.file("out/t.bin")) == Pattern.sha256Hex(count: size, seed: 9))
        #expect(ContinuousClock.now - started < .seconds(45))
    }
}
