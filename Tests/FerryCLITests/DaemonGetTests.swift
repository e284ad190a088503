import FerryTestSupport
import Foundation
import Testing

/// `ferry get` while a daemon runs the queue: the URLs go to the daemon, and the command
/// follows them with the output and exit status of a run of its own.
@Suite(.serialized) struct DaemonGetTests {
    private func ferry(_ arguments: [String], state: URL, timeout: Duration = .seconds(120)) throws -> ProcessResult {
        try run(executable: try ferryExecutableURL().path, arguments: arguments + ["--state-dir", state.path], timeout: timeout)
    }

    /// `lines(_:)` are the lines of `text`, sorted (two downloads run at once).
    private func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).sorted()
    }

    @Test func getHandsItsURLsToTheDaemonAndSaysWhatARunOfItsOwnSays() throws {
        // Given nginx with two files, a daemon, and the same downloads run without a daemon.
        let www = try TemporaryDirectory(worldReadable: true)
        let alone = try TemporaryDirectory()
        let served = try TemporaryDirectory()
        defer { www.remove(); alone.remove(); served.remove() }
        try Pattern.writeFile(at: www.file("a.bin"), count: 300_000, seed: 1)
        try Pattern.writeFile(at: www.file("b.bin"), count: 2 << 20, seed: 2)
        let nginx = try NginxServer.start(root: www.url, limitRate: "2m")
        defer { nginx.stop() }
        let urls = [nginx.url("/a.bin").absoluteString, nginx.url("/b.bin").absoluteString]
        let missing = nginx.url("/missing.bin").absoluteString
        let wrongSum = "sha-256=" + String(repeating: "0", count: 64)
        let runs: [[String]] = [
            ["get", "-d", "OUT"] + urls,
            ["get", "-d", "OUT", "--retries", "0", missing],
            ["get", "-d", "OUT", "-o", "c.bin", "--checksum", wrongSum, urls[0]],
            ["get", "-d", "OUT", urls[0]],
        ]
        var expected: [ProcessResult] = []
        for arguments in runs {
            expected.append(try ferry(arguments.map { $0 == "OUT" ? alone.file("out").path : $0 }, state: alone.file("state")))
        }
        let daemon = try FerryDaemon.start(stateDirectory: served.file("state"))
        defer { daemon.stop() }

        // When the same commands run while the daemon runs the queue...
        var results: [ProcessResult] = []
        for arguments in runs {
            results.append(try ferry(arguments.map { $0 == "OUT" ? served.file("out").path : $0 }, state: served.file("state")))
        }

        // Then the daemon ran them (its queue holds them), every file is byte-exact, and each
        // command said what it said alone, with the same status: 0, 1 for the 404, 3 for the
        // checksum mismatch, 0 with "already saved".
        let statuses = try daemon.statuses()
        #expect(statuses.count == 4, "\(statuses)")
        #expect(statuses.values.filter { $0["status"] as? String == "complete" }.count == 2, "\(statuses)")
        #expect(try SHA256Hex.of(file: served.file("out/a.bin")) == Pattern.sha256Hex(count: 300_000, seed: 1))
        #expect(try SHA256Hex.of(file: served.file("out/b.bin")) == Pattern.sha256Hex(count: 2 << 20, seed: 2))
        #expect(directoryListing(served.file("out")) == ["a.bin", "b.bin"])
        #expect(results.map(\.exitStatus) == [0, 1, 3, 0], "\(results.map(\.stderr))")
        for (run, (mine, theirs)) in zip(runs, zip(results, expected)) {
            #expect(mine.exitStatus == theirs.exitStatus, "\(run)")
            #expect(lines(mine.stderr.replacingOccurrences(of: served.path, with: alone.path)) == lines(theirs.stderr),
                    "\(run): \(mine.stderr) / \(theirs.stderr)")
        }
        #expect(results[0].stderr.contains("saved \(served.file("out/b.bin").path) (2.0 MiB)"), "\(results[0].stderr)")
        #expect(results[1].stderr.contains("missing.bin: server answered 404"), "\(results[1].stderr)")
        #expect(daemon.process.isRunning)
    }

    @Test func eachRetryOfADownloadTheDaemonRunsIsReportedOnceAsARunOfItsOwnReportsIt() throws {
        // Given a server answering 503 and a daemon running the queue.
        let server = try FaultServer.start()
        let state = try TemporaryDirectory()
        defer { server.stop(); state.remove() }
        let daemon = try FerryDaemon.start(stateDirectory: state.file("state"))
        defer { daemon.stop() }

        // When a download with two retries is handed to it.
        let result = try ferry(["get", "--retries", "2", "-d", state.file("out").path, server.url("/status/503").absoluteString],
                               state: state.file("state"))

        // Then each retry and the final failure are said once, as ExitStatusTests expects of a
        // run of its own, and the run ends with status 1.
        #expect(result.exitStatus == 1, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("ferry:") && $0.contains("503") }
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(lines.filter { $0.contains("retrying in") }.count == 2, "\(result.stderr)")
    }

    @Test func aGetWaitingBehindTheDaemonsOtherTransfersSaysSo() throws {
        // Given a daemon running one transfer at a time, busy with a slow download.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("busy.bin"), count: 16 << 20, seed: 1)
        try Pattern.writeFile(at: www.file("mine.bin"), count: 1 << 20, seed: 2)
        let nginx = try NginxServer.start(root: www.url, limitRate: "256k")
        defer { nginx.stop() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url, arguments: ["--max-concurrent", "1"])
        defer { daemon.stop() }
        let out = state.file("out")
        #expect(try ferry(["add", "-d", out.path, nginx.url("/busy.bin").absoluteString], state: state.url).exitStatus == 0)
        #expect(try daemon.waitUntil(timeout: .seconds(10)) { try daemon.statuses().values.contains { $0["status"] as? String == "active" } })

        // When `ferry get` hands it another URL, which must wait...
        let get = try ChildProcess.spawn(executable: try ferryExecutableURL().path,
                                         arguments: ["get", "-d", out.path, nginx.url("/mine.bin").absoluteString, "--state-dir", state.path])
        var said = false
        for _ in 0..<200 where !said {
            said = String(decoding: get.standardError, as: UTF8.self).contains("waiting: the daemon running this queue is at its limits")
            if !said { usleep(100_000) }
        }
        get.signal(SIGINT)
        let result = try #require(get.wait(timeout: .seconds(30)))

        // Then it said, once, that it waits for the daemon's other transfers.
        #expect(said, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "waiting:").count == 2, "\(result.stderr)")
        #expect(result.exitStatus == 130, "\(result.stderr)")
    }

    @Test func ctrlCPausesTheDaemonsDownloadAndTheSameCommandResumesIt() throws {
        // Given a daemon and a slow file.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("slow.bin"), count: 3 << 20, seed: 7)
        let nginx = try NginxServer.start(root: www.url, limitRate: "512k")
        defer { nginx.stop() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }
        let out = state.file("out")
        let arguments = ["get", "-d", out.path, nginx.url("/slow.bin").absoluteString, "--state-dir", state.path]

        // When `ferry get` is interrupted once part of the file has arrived...
        let first = try ChildProcess.spawn(executable: try ferryExecutableURL().path, arguments: arguments)
        let started = first.waitForOutput(timeout: .seconds(30)) { _ in
            (try? FileManager.default.attributesOfItem(atPath: out.appendingPathComponent("slow.bin.part").path)[.size] as? NSNumber)
                .map { $0.intValue > 256 << 10 } ?? false
        }
        #expect(started)
        first.signal(SIGINT)
        let interrupted = try #require(first.wait(timeout: .seconds(30)))

        // Then it exits 130, the task is paused in the daemon with its .part kept...
        #expect(interrupted.exitStatus == 130, "\(interrupted.stderr)")
        #expect(interrupted.stderr.contains("partial files were kept: run the same command again to resume"), "\(interrupted.stderr)")
        let status = try #require(try daemon.statuses().values.first)
        #expect(status["status"] as? String == "paused", "\(status)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("slow.bin.part").path))

        // ...and the same command resumes it to a byte-exact file.
        let second = try run(executable: try ferryExecutableURL().path, arguments: arguments, timeout: .seconds(60))
        #expect(second.exitStatus == 0, "\(second.stderr)")
        #expect(second.stderr.contains("resuming"), "\(second.stderr)")
        #expect(try SHA256Hex.of(file: out.appendingPathComponent("slow.bin")) == Pattern.sha256Hex(count: 3 << 20, seed: 7))
        #expect(nginx.accessLog().contains(" 206 "), "the download resumed with a range")
    }
}
