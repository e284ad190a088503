import FerryTestSupport
import Foundation
import Testing

/// `ferry resume` resumes interrupted downloads instead of restarting them: the real binary,
/// a rate-limited nginx location, SIGKILL in the middle of a queue (fault catalogue 10).
@Suite(.serialized) struct QueueResumeTests {
    /// The bytes per second nginx sends each download (`limit_rate 2m`).
    private static let rate = 2 << 20
    /// The scheduler's checkpoint interval in seconds (the default).
    private static let checkpointInterval = 1.0

    private func ferry(_ arguments: [String], state: TemporaryDirectory, timeout: Duration = .seconds(120)) throws -> ProcessResult {
        try run(executable: try ferryExecutableURL().path, arguments: arguments + ["--state-dir", state.file("state").path], timeout: timeout)
    }

    /// The largest `received` of each task's JSON progress events in `output`.
    private static func received(_ output: Data) -> [Int: Int64] {
        var latest: [Int: Int64] = [:]
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") where line.contains("\"event\":\"progress\"") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let id = (object["id"] as? NSNumber)?.intValue,
                  let value = (object["received"] as? NSNumber)?.int64Value else { continue }
            latest[id] = max(latest[id] ?? 0, value)
        }
        return latest
    }

    @Test func killedQueueResumesEveryInterruptedFileWithARange() throws {
        // Given four 8 MiB files behind a rate-limited location, queued.
        let count = 4
        let size = 8 << 20
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try FileManager.default.createDirectory(at: www.file("slow"), withIntermediateDirectories: true)
        for index in 0..<count {
            try Pattern.writeFile(at: www.file("slow/q\(index).bin"), count: size + index, seed: index + 7)
        }
        let nginx = try NginxServer.start(root: www.url, extraConfig: "location /slow/ { limit_rate 2m; sendfile_max_chunk 64k; }")
        defer { nginx.stop() }
        let out = state.file("out")
        let urls = (0..<count).map { nginx.url("/slow/q\($0).bin").absoluteString }
        #expect(try ferry(["add", "-d", out.path] + urls, state: state).exitStatus == 0)

        // When `ferry resume` is killed with SIGKILL once every download has 3 MiB or more...
        let engine = try ChildProcess.spawn(executable: try ferryExecutableURL().path,
                                            arguments: ["resume", "--max-concurrent", "\(count)", "--json", "--state-dir", state.file("state").path])
        defer { engine.kill() }
        let reached = engine.waitForOutput(timeout: .seconds(60)) { output in
            let latest = Self.received(output)
            return latest.count == count && latest.values.allSatisfy { $0 >= 3 << 20 }
        }
        try #require(reached, "the downloads never reached 3 MiB each")
        engine.signal(SIGKILL)
        #expect(engine.wait(timeout: .seconds(10))?.signal == SIGKILL)
        let parts = directoryListing(out).filter { $0.hasSuffix(".part") }
        #expect(parts.count == count, "\(directoryListing(out))")

        // ...and run again.
        let again = try ferry(["resume", "--max-concurrent", "\(count)"], state: state)

        // Then every file is byte-exact under its own name, with no copy and no .part left.
        #expect(again.exitStatus == 0, "\(again.stderr)")
        #expect(directoryListing(out) == (0..<count).map { "q\($0).bin" })
        for index in 0..<count {
            #expect(try SHA256Hex.of(file: out.appendingPathComponent("q\(index).bin")) == Pattern.sha256Hex(count: size + index, seed: index + 7))
        }
        // Each file was asked for twice: in full, then only the rest, with a Range and If-Range
        // (nginx's log: method, uri, status, bytes, range, if-range, length).
        let lines = nginx.accessLog().split(separator: "\n").map { $0.split(separator: " ").map(String.init) }.filter { $0.count > 5 && $0[1].hasPrefix("/slow/") }
        for index in 0..<count {
            let requests = lines.filter { $0[1] == "/slow/q\(index).bin" }
            #expect(requests.count == 2, "\(requests)")
            #expect(requests.contains { $0[2] == "200" && $0[4] == "\"-\"" }, "\(requests)")
            #expect(requests.contains { $0[2] == "206" && $0[4].hasPrefix("\"bytes=") && $0[4] != "\"bytes=0-\"" && $0[5] != "\"-\"" }, "\(requests)")
        }
        // The second run fetched only the rest: at most one checkpoint interval of bytes per
        // interrupted download was fetched twice.
        let sent = lines.compactMap { Int($0[3]) }.reduce(0, +)
        let sizes = (0..<count).map { size + $0 }.reduce(0, +)
        #expect(sent <= sizes + count * Int(Double(Self.rate) * Self.checkpointInterval), "nginx sent \(sent) bytes for \(sizes)")
        #expect(sent >= sizes)
    }
}
