import FerryTestSupport
import Foundation
import Testing

/// The queue order decides what starts next, also for tasks an engine already handed to its
/// transfer loop ahead of need; `ferry move` changes it from the command line.
@Suite(.serialized) struct QueueOrderTests {
    private func listedIDs(_ state: TemporaryDirectory) throws -> [Int] {
        let listed = try runFerry(["list", "--json"], stateDirectory: state.url)
        return listed.stdout.split(separator: "\n").compactMap { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["id"] as? Int
        }
    }

    @Test func moveChangesThePlaceOfATask() throws {
        let state = try TemporaryDirectory()
        let out = try TemporaryDirectory()
        defer { state.remove(); out.remove() }
        let urls = (1...4).map { "http://127.0.0.1:9/\($0).bin" }
        #expect(try runFerry(["add", "--paused", "-d", out.path] + urls, stateDirectory: state.url).exitStatus == 0)
        let ids = try listedIDs(state)
        #expect(ids.count == 4)

        let toFirst = try runFerry(["move", "\(ids[3])", "--to", "1"], stateDirectory: state.url)
        #expect(toFirst.exitStatus == 0, "\(toFirst.stderr)")
        #expect(toFirst.stderr.contains("now at place 1"))
        #expect(try listedIDs(state) == [ids[3], ids[0], ids[1], ids[2]])
        #expect(try runFerry(["move", "\(ids[0])", "--down"], stateDirectory: state.url).exitStatus == 0)
        #expect(try listedIDs(state) == [ids[3], ids[1], ids[0], ids[2]])
        #expect(try runFerry(["move", "\(ids[3])", "--bottom"], stateDirectory: state.url).exitStatus == 0)
        #expect(try listedIDs(state) == [ids[1], ids[0], ids[2], ids[3]])

        let unknown = try runFerry(["move", "999", "--up"], stateDirectory: state.url)
        #expect(unknown.exitStatus == 2 && unknown.stderr.contains("no such task"))
        let twoWays = try runFerry(["move", "\(ids[0])", "--up", "--down"], stateDirectory: state.url)
        #expect(twoWays.exitStatus == 2)
    }

    @Test func aTaskMovedToTheTopStartsNextThoughOthersWereHandedAhead() throws {
        // Given four downloads of ~2 s each (over 1 MiB, so through a .part), one at a time: while the first runs, the engine
        // holds the next ones handed ahead of need.
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        for name in ["a", "b", "c", "d"] {
            try Pattern.writeFile(at: www.file("\(name).bin"), count: 2_000_000)
        }
        let nginx = try NginxServer.start(root: www.url, limitRate: "1m")
        defer { nginx.stop() }
        let urls = ["a", "b", "c", "d"].map { nginx.url("/\($0).bin").absoluteString }
        #expect(try runFerry(["add", "-d", out.path] + urls, stateDirectory: state.url).exitStatus == 0)
        let ids = try listedIDs(state)
        let environment = ProcessInfo.processInfo.environment.merging(["FERRY_STATE_DIR": state.path]) { $1 }
        let engine = try ChildProcess.spawn(executable: try ferryExecutableURL().path,
                                            arguments: ["resume", "--max-concurrent", "1"], environment: environment)
        // Bounded: at most 20 s in steps of 20 ms.
        var started = false
        for _ in 0..<1_000 where !started {
            started = FileManager.default.fileExists(atPath: out.file("a.bin.part").path)
            if !started { usleep(20_000) }
        }
        #expect(started)

        // When the last task is moved to the top from another process.
        let moved = try runFerry(["move", "\(ids[3])", "--top"], stateDirectory: state.url)
        #expect(moved.exitStatus == 0, "\(moved.stderr)")
        let finished = try #require(engine.wait(timeout: .seconds(60)))

        // Then it is the next to be fetched, and every file is whole.
        #expect(finished.exitStatus == 0, "\(finished.stderr)")
        let fetched = nginx.accessLog().split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            return fields.count > 2 && fields[2] == "200" ? String(fields[1]) : nil
        }
        #expect(fetched == ["/a.bin", "/d.bin", "/b.bin", "/c.bin"], "\(nginx.accessLog())")
        for name in ["a", "b", "c", "d"] {
            #expect(try Data(contentsOf: out.file("\(name).bin")) == Pattern.bytes(count: 2_000_000))
        }
    }
}
