import FerryTestSupport
import Foundation
import Testing

/// `ferry add`, `list`, `resume`, `pause` and `remove` as a user runs them: the real binary,
/// a real nginx, one state directory per test.
@Suite(.serialized) struct QueueCommandTests {
    private func ferry(_ arguments: [String], state: TemporaryDirectory, stdin: Data? = nil, timeout: Duration = .seconds(120)) throws -> ProcessResult {
        try run(executable: try ferryExecutableURL().path, arguments: arguments + ["--state-dir", state.file("state").path],
                stdin: stdin, timeout: timeout)
    }

    private func spawnFerry(_ arguments: [String], state: TemporaryDirectory) throws -> ChildProcess {
        try ChildProcess.spawn(executable: try ferryExecutableURL().path,
                               arguments: arguments + ["--state-dir", state.file("state").path])
    }

    /// `listed(_:)` parses `ferry list --json`.
    private func listed(_ state: TemporaryDirectory) throws -> [[String: Any]] {
        let result = try ferry(["list", "--json"], state: state)
        #expect(result.exitStatus == 0, "\(result.stderr)")
        return try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func killedMidQueueThenResumedFinishesEveryFileByteExact() throws {
        // Given 24 files served slowly enough that a queue takes a few seconds (nginx sends a
        // second's worth of `limit_rate` at once, and the rest of a file at the next second).
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        for index in 0..<24 {
            try Pattern.writeFile(at: www.file("k\(index).bin"), count: 150_000 + index, seed: index)
        }
        let nginx = try NginxServer.start(root: www.url, limitRate: "100k")
        defer { nginx.stop() }
        let out = state.file("out")
        let urls = (0..<24).map { nginx.url("/k\($0).bin").absoluteString }
        #expect(try ferry(["add", "-d", out.path] + urls, state: state).exitStatus == 0)

        // When `ferry resume` is killed with SIGKILL after the first file is done...
        let engine = try spawnFerry(["resume", "--max-concurrent", "4", "--json"], state: state)
        let sawDone = engine.waitForOutput(timeout: .seconds(60)) { stdout in
            String(decoding: stdout, as: UTF8.self).contains(#""state":"done""#)
        }
        #expect(sawDone)
        engine.signal(SIGKILL)
        let killed = engine.wait(timeout: .seconds(10))
        #expect(killed?.signal == SIGKILL)
        let running = try listed(state).filter { $0["state"] as? String == "running" }
        #expect(!running.isEmpty)

        // ...and run again.
        let again = try ferry(["resume", "--max-concurrent", "24"], state: state)

        // Then every file is complete and byte-exact, no partial file is left, status 0.
        #expect(again.exitStatus == 0, "\(again.stderr)")
        for index in 0..<24 {
            #expect(try SHA256Hex.of(file: out.appendingPathComponent("k\(index).bin")) == Pattern.sha256Hex(count: 150_000 + index, seed: index))
        }
        // Each file exactly once under its own name: one committed in the instant before the
        // kill, but not yet recorded as done, is recognised, never fetched again as NAME.1.
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(names.sorted() == (0..<24).map { "k\($0).bin" }.sorted(), "\(names.sorted())")
        #expect(try listed(state).allSatisfy { $0["state"] as? String == "done" })
    }

    @Test func aSecondEngineIsRefusedAndAddPauseReachTheRunningOne() throws {
        // Given an engine running a slow download.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("slow.bin"), count: 20_000_000, seed: 1)
        try Pattern.writeFile(at: www.file("quick.bin"), count: 5_000, seed: 2)
        let nginx = try NginxServer.start(root: www.url, limitRate: "200k")
        defer { nginx.stop() }
        let out = state.file("out")
        #expect(try ferry(["add", "-d", out.path, nginx.url("/slow.bin").absoluteString], state: state).exitStatus == 0)
        let engine = try spawnFerry(["resume", "--json"], state: state)
        defer { engine.kill() }
        #expect(engine.waitForOutput(timeout: .seconds(30)) { stdout in
            String(decoding: stdout, as: UTF8.self).contains(#"{"event":"started","id":1}"#)
        })

        // When a second engine starts on the same state directory, it is refused with status 2.
        let second = try ferry(["resume"], state: state, timeout: .seconds(30))
        #expect(second.exitStatus == 2)
        #expect(second.stderr.contains("another ferry (pid \(engine.pid)) is running this queue"))

        // When `ferry add` runs in another shell, the engine starts the new task by itself.
        #expect(try ferry(["add", "-d", out.path, nginx.url("/quick.bin").absoluteString], state: state).exitStatus == 0)
        #expect(engine.waitForOutput(timeout: .seconds(10)) { stdout in
            String(decoding: stdout, as: UTF8.self).contains(#""id":2,"state":"done""#)
        })
        #expect(try SHA256Hex.of(file: out.appendingPathComponent("quick.bin")) == Pattern.sha256Hex(count: 5_000, seed: 2))

        // When the slow one is paused from another shell, the engine stops it and, with
        // nothing left to run, exits 0.
        #expect(try ferry(["pause", "1"], state: state).exitStatus == 0)
        let finished = engine.wait(timeout: .seconds(10))
        #expect(finished?.exitStatus == 0, "\(finished?.stderr ?? "")")
        #expect(finished?.stdout.contains(#""id":1,"state":"paused""#) == true)
        #expect(try listed(state).first?["state"] as? String == "paused")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("slow.bin").path))
    }

    @Test func batchFilesWithMirrorsOptionsCommentsGzipAndBadLines() throws {
        // Given a gzip-compressed batch file with comments, mirrors, options and two bad entries.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("one.bin"), count: 40_000, seed: 1)
        try Pattern.writeFile(at: www.file("two.bin"), count: 50_000, seed: 2)
        try Pattern.writeFile(at: www.file("three.bin"), count: 30_000, seed: 3)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let base = nginx.baseURL.absoluteString
        let batch = """
            # my downloads
            \(base)/missing.bin\t\(base)/one.bin
              out=first.bin
              header=Authorization: Bearer s3cret
            ftp://example.com/nope.bin

            \(base)/two.bin
              dir=\(state.file("sub").path)
              checksum=sha-256=\(Pattern.sha256Hex(count: 50_000, seed: 2))
            \(base)/three.bin
              retry-wait=4
            """
        let plain = state.file("batch.txt")
        try Data(batch.utf8).write(to: plain)
        let gzip = try run(executable: "/bin/gzip", arguments: ["-k", plain.path])
        #expect(gzip.exitStatus == 0)
        let out = state.file("out")

        // When it is added from stdin with -d for entries without a dir.
        let added = try ferry(["add", "-i", "-", "-d", out.path], state: state,
                              stdin: try Data(contentsOf: URL(fileURLWithPath: plain.path + ".gz")))

        // Then the bad line is named, status 2, an aria2 option Ferry ignores is a warning, and
        // the good entries are queued as written.
        #expect(added.exitStatus == 2)
        #expect(added.stderr.contains("line 5"))
        #expect(added.stderr.contains("line 11: retry-wait is ignored"))
        #expect(added.stderr.contains("added 3 tasks (#1 to #3)"), "\(added.stderr)")
        let tasks = try listed(state)
        #expect(tasks.count == 3)
        #expect((tasks.first?["urls"] as? [String])?.count == 2)
        #expect(tasks.first?["name"] as? String == "first.bin")
        #expect(tasks.first?["headers"] as? [String] == ["Authorization: ***"])
        #expect(!(try ferry(["list"], state: state).stdout.contains("s3cret")))
        #expect((tasks[1]["dir"] as? String)?.hasSuffix("/sub") == true)

        // When the queue runs, the first entry falls back to its second mirror.
        let resumed = try ferry(["resume"], state: state)
        #expect(resumed.exitStatus == 0, "\(resumed.stderr)")
        let first = try? SHA256Hex.of(file: out.appendingPathComponent("first.bin"))
        #expect(first == Pattern.sha256Hex(count: 40_000, seed: 1),
                "\((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []) \(resumed.stderr) \((try? listed(state)) ?? [])")
        #expect(try listed(state).allSatisfy { $0["state"] as? String == "done" })
    }

    @Test func removeWithDeleteFileDeletesTheFinishedFile() throws {
        // Given a finished download.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("f.bin"), count: 1_000)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let out = state.file("out")
        #expect(try ferry(["add", "-d", out.path, nginx.url("/f.bin").absoluteString], state: state).exitStatus == 0)
        let resumed = try ferry(["resume"], state: state)
        #expect(resumed.exitStatus == 0)
        // The printer's lines (buffered, written at the end at the latest) and its summary.
        let file = out.appendingPathComponent("f.bin").path
        #expect(resumed.stderr.contains("ferry: #1 started\nferry: #1 done \(file)\n"), "\(resumed.stderr)")
        #expect(resumed.stderr.contains("ferry: 1 done, 0 failed"), "\(resumed.stderr)")
        #expect(FileManager.default.fileExists(atPath: file))

        // When it is removed with --delete-file.
        let removed = try ferry(["remove", "--delete-file", "1"], state: state)

        // Then the task and its file are gone.
        #expect(removed.exitStatus == 0, "\(removed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("f.bin").path))
        #expect(try listed(state).isEmpty)
        #expect(try ferry(["remove", "7"], state: state).exitStatus == 2)
    }

    @Test func removeStatePurgesTheFinishedTasksOfThatStateAndKeepsFiles() throws {
        // Given two finished downloads, one failed (404) and one still queued.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("a.bin"), count: 1_000)
        try Pattern.writeFile(at: www.file("b.bin"), count: 2_000)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let out = state.file("out")
        let urls = ["/a.bin", "/b.bin", "/missing.bin"].map { nginx.url($0).absoluteString }
        #expect(try ferry(["add", "-d", out.path, "--retries", "0"] + urls, state: state).exitStatus == 0)
        _ = try ferry(["resume"], state: state)
        #expect(try ferry(["add", "-d", out.path, "--paused", nginx.url("/later.bin").absoluteString], state: state).exitStatus == 0)
        #expect(try listed(state).compactMap { $0["state"] as? String }.sorted() == ["done", "done", "failed", "paused"])

        // When the done tasks are purged.
        let purged = try ferry(["remove", "--state", "done"], state: state)

        // Then only they are gone, and their files are kept.
        #expect(purged.exitStatus == 0, "\(purged.stderr)")
        #expect(purged.stderr.contains("removed 2 tasks"), "\(purged.stderr)")
        #expect(try listed(state).compactMap { $0["state"] as? String }.sorted() == ["failed", "paused"])
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("a.bin").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("b.bin").path))

        // And unfinished states, or --state with ids, are refused without removing anything.
        #expect(try ferry(["remove", "--state", "paused"], state: state).exitStatus == 2)
        #expect(try ferry(["remove", "--state", "failed", "3"], state: state).exitStatus == 2)
        #expect(try listed(state).count == 2)

        // And the failed one goes with --state failed.
        #expect(try ferry(["remove", "--state", "failed"], state: state).exitStatus == 0)
        #expect(try listed(state).compactMap { $0["state"] as? String } == ["paused"])
    }
}
