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
        // Given four downloads of 2 MB (over 1 MiB, so through a .part), one at a time: the
        // server holds the first after 1 MiB until the test lets it go on, and meanwhile the
        // engine holds the next ones handed ahead of need.
        let server = try FaultServer.start()
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { server.stop(); out.remove(); state.remove() }
        let urls = ["a", "b", "c", "d"].map { name in
            let query = name == "a" ? ["name": name, "hold": "a", "hold_after": String(1 << 20)] : ["name": name]
            return server.url("/bytes/2000000", query: query).absoluteString
        }
        #expect(try runFerry(["add", "-d", out.path, "-o", "a.bin", urls[0]], stateDirectory: state.url).exitStatus == 0)
        for (name, url) in zip(["b", "c", "d"], urls.dropFirst()) {
            #expect(try runFerry(["add", "-d", out.path, "-o", "\(name).bin", url], stateDirectory: state.url).exitStatus == 0)
        }
        let ids = try listedIDs(state)
        try #require(ids.count == 4)
        let environment = ProcessInfo.processInfo.environment.merging(["FERRY_STATE_DIR": state.path]) { $1 }
        let engine = try ChildProcess.spawn(executable: try ferryExecutableURL().path,
                                            arguments: ["resume", "--max-concurrent", "1", "--json"], environment: environment)
        defer { engine.kill() }
        func events(_ output: Data) -> [(event: String, id: Int, state: String?)] {
            String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { line in
                guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                      let event = object["event"] as? String, let id = object["id"] as? Int else { return nil }
                return (event, id, object["state"] as? String)
            }
        }
        #expect(engine.waitForOutput(timeout: .seconds(30)) { events($0).contains { $0.event == "started" && $0.id == ids[0] } })
        var held = false
        for _ in 0..<1_500 where !held {
            held = FileManager.default.fileExists(atPath: out.file("a.bin.part").path)
            if !held { usleep(20_000) }
        }
        #expect(held)

        // When the last task is moved to the top from another process, and the first goes on
        // once the engine took back the tasks it had handed ahead.
        let moved = try runFerry(["move", "\(ids[3])", "--top"], stateDirectory: state.url)
        #expect(moved.exitStatus == 0, "\(moved.stderr)")
        let takenBack = engine.waitForOutput(timeout: .seconds(30)) { output in
            Set(events(output).filter { $0.event == "ended" && $0.state == "queued" }.map(\.id)) == Set(ids.dropFirst())
        }
        #expect(takenBack, "\(String(decoding: engine.standardOutput, as: UTF8.self))")
        try server.open(gate: "a")
        let finished = try #require(engine.wait(timeout: .seconds(60)))

        // Then it is the next to be fetched, and every file is whole.
        #expect(finished.exitStatus == 0, "\(finished.stderr)")
        let fetched = try server.requests(prefix: "/bytes").compactMap { request in
            URLComponents(string: request.path)?.queryItems?.first { $0.name == "name" }?.value
        }
        #expect(fetched == ["a", "d", "b", "c"])
        for name in ["a", "b", "c", "d"] {
            #expect(try Data(contentsOf: out.file("\(name).bin")) == Pattern.bytes(count: 2_000_000))
        }
    }
}
