import FerryQueue
import FerryTestSupport
import Foundation
import Testing

/// The journal's `running` next to a real `ferry resume`: a row reads `running` only while its
/// transfer is live, however many tasks the engine holds ahead of need.
@Suite(.serialized) struct JournalRunningTests {
    @Test func aResumeTwoAtOnceNeverShowsMoreThanTwoRowsRunning() throws {
        // Given 30 downloads of 192 KiB behind a location that sends each at 512 KiB/s, queued.
        let count = 30
        let size = 192 << 10
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try FileManager.default.createDirectory(at: www.file("slow"), withIntermediateDirectories: true)
        for index in 0..<count {
            try Pattern.writeFile(at: www.file("slow/r\(index).bin"), count: size, seed: index)
        }
        let nginx = try NginxServer.start(root: www.url, extraConfig: "location /slow/ { limit_rate 512k; sendfile_max_chunk 64k; }")
        defer { nginx.stop() }
        let stateDirectory = state.file("state").path
        let out = state.file("out")
        let urls = (0..<count).map { nginx.url("/slow/r\($0).bin").absoluteString }
        let added = try run(executable: try ferryExecutableURL().path,
                            arguments: ["add", "-d", out.path] + urls + ["--state-dir", stateDirectory], timeout: .seconds(60))
        #expect(added.exitStatus == 0, "\(added.stderr)")
        let journal = try Journal.open(at: stateDirectory + "/journal.sqlite", onCorruption: .fail).journal

        // When `ferry resume --max-concurrent 2` runs them, the journal read every 150 ms.
        let engine = try ChildProcess.spawn(executable: try ferryExecutableURL().path,
                                            arguments: ["resume", "--max-concurrent", "2", "--state-dir", stateDirectory])
        defer { engine.kill() }
        var samples: [Int] = []
        // Bounded: 30 files two at once take about 6 s; 120 s at most.
        for _ in 0..<800 where engine.isRunning {
            samples.append(try journal.countsByState()[.running] ?? 0)
            usleep(150_000)
        }
        let ended = try #require(engine.wait(timeout: .seconds(30)))

        // Then no reading saw more than 2 rows running (and some saw 2), and all 30 are done.
        #expect(ended.exitStatus == 0, "\(ended.stderr)")
        #expect(samples.max() == 2, "running rows per reading: \(samples)")
        #expect(try journal.countsByState()[.done] == count)
        for index in 0..<count {
            #expect(try SHA256Hex.of(file: out.appendingPathComponent("r\(index).bin")) == Pattern.sha256Hex(count: size, seed: index))
        }
    }

    @Test func listNextToAGetOfItsOwnShowsWhatRunsWithItsLiveSpeedAndTimeLeft() throws {
        // Given a `ferry get` of three slow downloads, one at a time, running without a daemon.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try FileManager.default.createDirectory(at: www.file("slow"), withIntermediateDirectories: true)
        try Pattern.writeFile(at: www.file("slow/g.bin"), count: 4 << 20, seed: 3)
        let nginx = try NginxServer.start(root: www.url, extraConfig: "location /slow/ { limit_rate 1m; sendfile_max_chunk 64k; }")
        defer { nginx.stop() }
        let stateDirectory = state.file("state").path
        let url = nginx.url("/slow/g.bin").absoluteString
        let get = try ChildProcess.spawn(executable: try ferryExecutableURL().path,
                                         arguments: ["get", "--max-concurrent", "1", "-d", state.file("out").path,
                                                     url, url, url, "--state-dir", stateDirectory])
        defer { get.kill() }

        // When `ferry list` is read while it runs (until the first transfer is marked running
        // and has a rate: the get's engine answers on control.sock, as a daemon does).
        var states: [String] = []
        var rows: [[String]] = []
        var json = ""
        func hasRate(_ row: [String]?) -> Bool { row.map { $0.count > 5 && $0[4] != "-" && $0[5] != "-" } == true }
        for _ in 0..<100 where states != ["running", "queued", "queued"] || !hasRate(rows.first) {
            let listed = try run(executable: try ferryExecutableURL().path, arguments: ["list", "--state-dir", stateDirectory],
                                 timeout: .seconds(30))
            rows = listed.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            states = rows.map { $0.dropFirst().first ?? "" }
            json = try run(executable: try ferryExecutableURL().path, arguments: ["list", "--json", "--state-dir", stateDirectory],
                           timeout: .seconds(30)).stdout
            usleep(100_000)
        }

        // Then the one transferring reads running, with its live speed and time left, and the
        // two held ahead read queued, in text and in JSON, with no side file in the state directory.
        #expect(states == ["running", "queued", "queued"])
        #expect(hasRate(rows.first) && rows.first?[4].hasSuffix("/s") == true && rows.first?[5].hasSuffix("s") == true, "\(rows)")
        let jsonStates = json.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["state"] as? String
        }
        #expect(jsonStates == ["running", "queued", "queued"], "\(json)")
        let running = json.split(separator: "\n").first.flatMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
        #expect((running?["speed"] as? Int).map { $0 > 0 } == true, "\(json)")
        #expect(running?["eta"] is Int, "\(json)")
        #expect(directoryListing(URL(fileURLWithPath: stateDirectory)).allSatisfy { !$0.hasPrefix("transferring") })
        get.signal(SIGINT)
        #expect(get.wait(timeout: .seconds(30))?.exitStatus == 130)
    }

    @Test func ferryStopEndsAGetOfItsOwnAsSIGTERMWouldAndSaysWhatItStopped() throws {
        // Given a `ferry get` of a slow download running without a daemon.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try FileManager.default.createDirectory(at: www.file("slow"), withIntermediateDirectories: true)
        try Pattern.writeFile(at: www.file("slow/s.bin"), count: 4 << 20, seed: 5)
        let nginx = try NginxServer.start(root: www.url, extraConfig: "location /slow/ { limit_rate 256k; sendfile_max_chunk 64k; }")
        defer { nginx.stop() }
        let stateDirectory = state.file("state").path
        let out = state.file("out")
        let get = try ChildProcess.spawn(executable: try ferryExecutableURL().path,
                                         arguments: ["get", "--json", "-d", out.path, nginx.url("/slow/s.bin").absoluteString,
                                                     "--state-dir", stateDirectory])
        defer { get.kill() }
        #expect(get.waitForOutput(timeout: .seconds(60)) { String(decoding: $0, as: UTF8.self).contains("\"event\":\"progress\"") })
        let listed = try run(executable: try ferryExecutableURL().path, arguments: ["list", "--state-dir", stateDirectory],
                             timeout: .seconds(30)).stdout
        #expect(listed.contains("\trunning\t"), "\(listed)")

        // When `ferry stop` is run for its state directory
        let stop = try run(executable: try ferryExecutableURL().path, arguments: ["stop", "--state-dir", stateDirectory],
                           timeout: .seconds(90))

        // Then it says that the get stopped (not a daemon), the get ends as SIGTERM ends it, and
        // the download is paused with its partial file kept.
        #expect(stop.exitStatus == 0, "\(stop.stderr)")
        #expect(stop.stderr.contains("ferry get (pid \(get.pid)) stopped; its downloads are paused"), "\(stop.stderr)")
        #expect(!stop.stderr.contains("daemon"), "\(stop.stderr)")
        #expect(get.wait(timeout: .seconds(30))?.exitStatus == 128 + SIGTERM)
        #expect(directoryListing(out).contains("s.bin.part"), "\(directoryListing(out))")
        let after = try run(executable: try ferryExecutableURL().path, arguments: ["list", "--state-dir", stateDirectory],
                            timeout: .seconds(30)).stdout
        #expect(after.contains("\tpaused\t"), "\(after)")
    }
}
