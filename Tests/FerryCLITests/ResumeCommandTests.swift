import FerryTestSupport
import Foundation
import Testing

/// `ferry get` resuming through its journal: the real binary, nginx with a rate-limited
/// location, the fault server (fault catalogue 10, 11, 13, 14, 15, and the lock).
@Suite(.serialized) struct ResumeCommandTests {
    /// Serves `size` bytes of the pattern at `/slow/f.bin`, limited to `rate` (nginx syntax), in
    /// 64 KiB pieces (nginx's default 2 MiB sendfile chunks would arrive in bursts).
    private func slowServer(size: Int, rate: String, seed: Int = 0) throws -> (NginxServer, TemporaryDirectory) {
        let www = try TemporaryDirectory(worldReadable: true)
        try FileManager.default.createDirectory(at: www.file("slow"), withIntermediateDirectories: true)
        try Pattern.writeFile(at: www.file("slow/f.bin"), count: size, seed: seed)
        let nginx = try NginxServer.start(root: www.url, extraConfig: "location /slow/ { limit_rate \(rate); sendfile_max_chunk 64k; }")
        return (nginx, www)
    }

    /// Starts `ferry get --json` with its journal in `state`.
    private func spawnFerry(_ arguments: [String], state: URL, extraEnvironment: [String: String] = [:]) throws -> ChildProcess {
        let environment = ProcessInfo.processInfo.environment.merging(["FERRY_STATE_DIR": state.path]) { $1 }.merging(extraEnvironment) { $1 }
        return try ChildProcess.spawn(executable: try ferryExecutableURL().path, arguments: arguments, environment: environment)
    }

    /// The `received` values of the JSON progress events in `output`.
    private static func receivedValues(_ output: Data) -> [Int64] {
        String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { line -> Int64? in
            guard line.contains("\"event\":\"progress\""),
                  let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return (object["received"] as? NSNumber)?.int64Value
        }
    }

    /// nginx's access log lines for `path`: `[method, uri, status, bytes, range, if-range, length]`.
    private func accessLines(_ nginx: NginxServer, path: String) -> [[String]] {
        nginx.accessLog().split(separator: "\n").map { $0.split(separator: " ").map(String.init) }.filter { $0.count > 3 && $0[1] == path }
    }

    // Ctrl-C checkpoints, keeps the .part, says how to resume and exits 130; the same command resumes.
    @Test func interruptedDownloadResumesWhenTheSameCommandRunsAgain() throws {
        let size = 12 << 20
        let (nginx, www) = try slowServer(size: size, rate: "3m")
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { nginx.stop(); www.remove(); out.remove(); state.remove() }
        let arguments = ["get", "--json", "-d", out.path, nginx.url("/slow/f.bin").absoluteString]

        // Given a running download with more than 1 MiB received.
        let first = try spawnFerry(arguments, state: state.url)
        let progressed = first.waitForOutput(timeout: .seconds(30)) { (Self.receivedValues($0).last ?? 0) > 1 << 20 }
        #expect(progressed)

        // When it is interrupted.
        first.signal(SIGINT)
        let interrupted = try #require(first.wait(timeout: .seconds(30)))

        // Then it exits 130, says how to resume, keeps the .part and no final file.
        #expect(interrupted.exitStatus == 130, "\(interrupted.stderr)")
        #expect(interrupted.stderr.contains("run the same command again"))
        let kept = try Data(contentsOf: out.file("f.bin.part")).count
        #expect(kept > 0)
        #expect(!FileManager.default.fileExists(atPath: out.file("f.bin").path))

        // When the same command runs again.
        let second = try runFerry(arguments, stateDirectory: state.url)

        // Then it resumes with a range from at least the kept bytes, and ends byte-exact.
        #expect(second.exitStatus == 0, "\(second.stderr)")
        #expect(try SHA256Hex.of(file: out.file("f.bin")) == Pattern.sha256Hex(count: size))
        let lines = accessLines(nginx, path: "/slow/f.bin")
        #expect(lines.count == 2)
        #expect(lines.last?[2] == "206")
        #expect(lines.last.flatMap { Int($0[3]) }.map { $0 <= size - kept } == true)
        // Progress after the resume starts at the bytes on disk and never exceeds the total.
        let received = Self.receivedValues(second.standardOutput)
        #expect(received.first.map { $0 >= Int64(kept) } == true)
        #expect(received.allSatisfy { $0 <= Int64(size) })
        #expect(directoryListing(out.url) == ["f.bin"])
    }

    // Catalogue 10: killed with SIGKILL at ten random moments, restarted each time: byte-exact,
    // every restart resumes with a range, and nginx sent at most the file plus one checkpoint
    // interval of bytes per kill. The interval is 0.25 s here (1 s by default) to keep the test short.
    @Test func tenKillsStillEndByteExactWithBoundedRefetching() throws {
        // Ten runs of up to 2 s after a first second's burst move up to about 100 MB: the file
        // is larger, so the last run still has bytes to ask for.
        let size = 128 << 20
        let rate = 4 << 20
        let checkpointInterval = 0.25
        let (nginx, www) = try slowServer(size: size, rate: "4m")
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { nginx.stop(); www.remove(); out.remove(); state.remove() }
        let arguments = ["get", "--json", "-d", out.path, nginx.url("/slow/f.bin").absoluteString]
        let environment = ["FERRY_CHECKPOINT_INTERVAL": "\(checkpointInterval)"]
        var generator = SystemRandomNumberGenerator()
        var kills = 0

        for _ in 1...10 {
            let child = try spawnFerry(arguments, state: state.url, extraEnvironment: environment)
            // A random moment 1.25 to 2 s of transfer after this run's first progress (nginx sends
            // the first second's worth of a rate-limited reply at once, so later than that).
            let delta = Int64.random(in: Int64(Double(rate) * 1.25)...Int64(rate * 2), using: &generator)
            let reached = child.waitForOutput(timeout: .seconds(60)) { output in
                let received = Self.receivedValues(output)
                guard let base = received.first, let last = received.last else { return false }
                return last >= base + delta
            }
            if !reached { break }  // finished early
            child.signal(SIGKILL)
            let result = try #require(child.wait(timeout: .seconds(10)))
            #expect(result.signal == SIGKILL)
            kills += 1
            // Never "done" unless complete at its final name.
            #expect(!FileManager.default.fileExists(atPath: out.file("f.bin").path))
        }
        #expect(kills == 10)

        let last = try runFerry(arguments, stateDirectory: state.url, timeout: .seconds(120))
        #expect(last.exitStatus == 0, "\(last.stderr)")
        #expect(try SHA256Hex.of(file: out.file("f.bin")) == Pattern.sha256Hex(count: size))
        #expect(directoryListing(out.url) == ["f.bin"])
        let lines = accessLines(nginx, path: "/slow/f.bin")
        #expect(lines.count == kills + 1)
        #expect(lines.first?[2] == "200")
        #expect(lines.dropFirst().allSatisfy { $0[2] == "206" && $0[4].hasPrefix("\"bytes=") }, "\(lines)")
        let sent = lines.compactMap { Int($0[3]) }.reduce(0, +)
        #expect(sent <= size + kills * Int(Double(rate) * checkpointInterval), "nginx sent \(sent) bytes for \(size) with \(kills) kills")
    }

    // The engine lock: one engine per state directory. A second `ferry get` names the first,
    // whose engine runs its download too (no second engine starts), and ends as a run of its own.
    @Test func aSecondGetOnTheSameStateDirectoryNamesTheFirstAndGoesThroughItsEngine() throws {
        let (nginx, www) = try slowServer(size: 8 << 20, rate: "1m")
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { nginx.stop(); www.remove(); out.remove(); state.remove() }
        let first = try spawnFerry(["get", "--json", "-d", out.path, nginx.url("/slow/f.bin").absoluteString], state: state.url)
        defer { first.kill() }
        #expect(first.waitForOutput(timeout: .seconds(30)) { !Self.receivedValues($0).isEmpty })

        let second = try runFerry(["get", "-d", out.path, "-o", "other.bin", nginx.url("/slow/f.bin").absoluteString], stateDirectory: state.url)

        #expect(second.exitStatus == 0, "\(second.stderr)")
        #expect(second.stderr.contains("ferry get (pid \(first.pid)) runs this queue"), "\(second.stderr)")
        #expect(try SHA256Hex.of(file: out.file("other.bin")) == SHA256Hex.of(file: www.file("slow/f.bin")))
        #expect(!FileManager.default.fileExists(atPath: out.file("other.bin.part").path))
    }

    // SIGTERM stops a `ferry resume` in order: the transfer checkpointed and queued, exit 143.
    @Test func sigtermEndsAResumeWithItsTasksQueuedAndStatus143() throws {
        let (nginx, www) = try slowServer(size: 8 << 20, rate: "1m")
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { nginx.stop(); www.remove(); out.remove(); state.remove() }
        let added = try runFerry(["add", "-d", out.path, nginx.url("/slow/f.bin").absoluteString], stateDirectory: state.url)
        #expect(added.exitStatus == 0, "\(added.stderr)")
        let resume = try spawnFerry(["resume", "--json"], state: state.url)
        defer { resume.kill() }
        #expect(resume.waitForOutput(timeout: .seconds(30)) { (Self.receivedValues($0).last ?? 0) > 256 << 10 })

        resume.signal(SIGTERM)
        let ended = try #require(resume.wait(timeout: .seconds(30)))

        #expect(ended.exitStatus == 143, "\(ended.stderr)")
        #expect(ended.stderr.contains("interrupted; unfinished transfers stay queued"), "\(ended.stderr)")
        let listed = try runFerry(["list"], stateDirectory: state.url)
        #expect(listed.stdout.split(separator: "\t").dropFirst().first == "queued", "\(listed.stdout)")
        #expect(try Data(contentsOf: out.file("f.bin.part")).count > 0)
    }

    // `ferry list` next to a `ferry resume` running without a daemon: the tasks handed to its
    // engine ahead of their turn are queued, not running (the journal says so); once stopped,
    // none is running.
    @Test func listNextToAResumeOfItsOwnShowsOnlyTheTransfersRunning() throws {
        let (nginx, www) = try slowServer(size: 8 << 20, rate: "1m")
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { nginx.stop(); www.remove(); out.remove(); state.remove() }
        for name in ["a.bin", "b.bin", "c.bin"] {
            let added = try runFerry(["add", "-d", out.path, "-o", name, nginx.url("/slow/f.bin").absoluteString], stateDirectory: state.url)
            #expect(added.exitStatus == 0, "\(added.stderr)")
        }
        let resume = try spawnFerry(["resume", "--json", "--max-concurrent", "1"], state: state.url)
        defer { resume.kill() }
        #expect(resume.waitForOutput(timeout: .seconds(30)) { !Self.receivedValues($0).isEmpty })

        // The started transfer is marked running by the engine's next commit; the list is read
        // until it shows it.
        var states: [String] = []
        for _ in 0..<40 {
            let listed = try runFerry(["list"], stateDirectory: state.url)
            states = listed.stdout.split(separator: "\n").map { $0.split(separator: "\t").dropFirst().first.map(String.init) ?? "" }
            if states == ["running", "queued", "queued"] { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(states == ["running", "queued", "queued"])
        let running = try runFerry(["list", "--state", "running"], stateDirectory: state.url)
        #expect(running.stdout.split(separator: "\n").count == 1, "\(running.stdout)")

        resume.signal(SIGINT)
        let ended = try #require(resume.wait(timeout: .seconds(30)))
        #expect(ended.exitStatus == 130, "\(ended.stderr)")
        // Stopped, nothing reads running any more: the three are queued for the next run.
        let after = try runFerry(["list"], stateDirectory: state.url)
        #expect(after.stdout.split(separator: "\n").map { $0.split(separator: "\t").dropFirst().first.map(String.init) ?? "" }
                == ["queued", "queued", "queued"], "\(after.stdout)")
    }

    // Catalogue 11: a corrupt journal is set aside with a message; the download still works.
    @Test func aCorruptJournalIsSetAside() throws {
        let fault = try FaultServer.start()
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { fault.stop(); out.remove(); state.remove() }
        try Data(repeating: 0x42, count: 10_000).write(to: state.file("journal.sqlite"))

        let result = try runFerry(["get", "-d", out.path, fault.url("/bytes/1000").absoluteString], stateDirectory: state.url)

        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(result.stderr.contains("unreadable"))
        #expect(directoryListing(state.url).contains { $0.hasPrefix("journal.sqlite.corrupt-") })
        #expect(try Data(contentsOf: out.file("1000")) == Pattern.bytes(count: 1000))
    }

    // Catalogue 13: a destination that cannot be created fails before anything is downloaded.
    @Test func anUnusableDestinationFailsBeforeAnyRequest() throws {
        let fault = try FaultServer.start()
        let out = try TemporaryDirectory()
        defer { fault.stop(); out.remove() }
        try Data("x".utf8).write(to: out.file("plain-file"))

        let result = try runFerry(["get", "-d", out.file("plain-file/sub").path, fault.url("/bytes/1000").absoluteString])

        #expect(result.exitStatus == 4)
        #expect(try fault.requests(prefix: "/bytes").isEmpty)
    }

    // Catalogue 14: two downloads with the same destination in one command get different names.
    @Test func twoDownloadsNeverShareADestination() throws {
        let fault = try FaultServer.start()
        let out = try TemporaryDirectory()
        defer { fault.stop(); out.remove() }

        let result = try runFerry(["get", "-d", out.path, fault.url("/bytes/1000?seed=1").absoluteString, fault.url("/bytes/1000?seed=2").absoluteString])

        #expect(result.exitStatus == 0, "\(result.stderr)")
        let names = directoryListing(out.url)
        #expect(names == ["1000", "1000.1"])
        let contents = Set(try names.map { try Data(contentsOf: out.file($0)) })
        #expect(contents == [Pattern.bytes(count: 1000, seed: 1), Pattern.bytes(count: 1000, seed: 2)])
    }

    // Catalogue 15: --checksum: a mismatch exits 3 with both digests and leaves no file; a match exits 0.
    @Test func checksumMismatchExitsThree() throws {
        let fault = try FaultServer.start()
        let out = try TemporaryDirectory()
        defer { fault.stop(); out.remove() }
        let url = fault.url("/bytes/4096").absoluteString
        let wrong = String(repeating: "ab", count: 32)
        let actual = Pattern.sha256Hex(count: 4096)

        let mismatch = try runFerry(["get", "--checksum", "sha-256=\(wrong)", "-d", out.path, url])
        #expect(mismatch.exitStatus == 3, "\(mismatch.stderr)")
        #expect(mismatch.stderr.contains(wrong))
        #expect(mismatch.stderr.contains(actual))
        #expect(directoryListing(out.url).isEmpty)

        let match = try runFerry(["get", "--checksum", "SHA256=\(actual.uppercased())", "-d", out.path, url])
        #expect(match.exitStatus == 0, "\(match.stderr)")
        #expect(directoryListing(out.url) == ["4096"])

        let malformed = try runFerry(["get", "--checksum", "sha-256=xyz", "-d", out.path, url])
        #expect(malformed.exitStatus == 2)
    }

    @Test func contentDispositionNamesTheFileSafely() throws {
        let fault = try FaultServer.start()
        let out = try TemporaryDirectory()
        defer { fault.stop(); out.remove() }
        let url = fault.url("/bytes/100", query: ["cd": "attachment; filename*=UTF-8''..%2F..%2Frates%20%E2%82%AC.csv"]).absoluteString

        let result = try runFerry(["get", "--content-disposition", "-d", out.path, url])

        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(directoryListing(out.url) == ["rates €.csv"])
    }
}
