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
}
