import FerryTestSupport
import Foundation
import Testing

/// Fault catalogue 42: tasks sharing a file name, `ferry resume` killed with SIGKILL at
/// several moments and restarted: each task keeps the name it was first given (`same.bin`,
/// `same.1.bin`, ...), every file ends byte-exact, and no `.part` is left behind.
@Suite(.serialized) struct SameNameKillTests {
    private static let count = 12
    private static let size = 3 << 20

    private func ferry(_ arguments: [String], state: TemporaryDirectory, timeout: Duration = .seconds(120)) throws -> ProcessResult {
        try run(executable: try ferryExecutableURL().path, arguments: arguments + ["--state-dir", state.file("state").path], timeout: timeout)
    }

    /// `events(_:)` are the JSON event lines of `output`, as objects.
    private static func events(_ output: Data) -> [[String: Any]] {
        String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    /// `tasksWithBytes(_:atLeast:)` counts the tasks whose progress reached `bytes` in `output`.
    private static func tasksWithBytes(_ output: Data, atLeast bytes: Int64) -> Int {
        var reached = Set<Int>()
        for event in events(output) where event["event"] as? String == "progress" {
            if let id = (event["id"] as? NSNumber)?.intValue, ((event["received"] as? NSNumber)?.int64Value ?? 0) >= bytes {
                reached.insert(id)
            }
        }
        return reached.count
    }

    /// `count(_:_:)` counts the events named `name` (`ended` ones only when done).
    private static func count(_ output: Data, _ name: String) -> Int {
        events(output).filter { event in
            event["event"] as? String == name && (name != "ended" || event["state"] as? String == "done")
        }.count
    }

    @Test func killedTasksSharingANameKeepTheirNamesAndLeaveNoPartFiles() throws {
        // Given twelve different 3 MiB files behind a rate-limited location, all queued to be
        // saved as same.bin in one directory.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try FileManager.default.createDirectory(at: www.file("slow"), withIntermediateDirectories: true)
        for index in 0..<Self.count {
            try Pattern.writeFile(at: www.file("slow/s\(index).bin"), count: Self.size + index, seed: 40 + index)
        }
        let nginx = try NginxServer.start(root: www.url, extraConfig: "location /slow/ { limit_rate 2m; sendfile_max_chunk 64k; }")
        defer { nginx.stop() }
        let out = state.file("out")
        let batch = (0..<Self.count).map { "\(nginx.url("/slow/s\($0).bin").absoluteString)\n  out=same.bin\n" }.joined()
        try batch.write(to: state.file("batch.txt"), atomically: true, encoding: .utf8)
        let add = try ferry(["add", "-d", out.path, "-i", state.file("batch.txt").path], state: state)
        try #require(add.exitStatus == 0, "\(add.stderr)")

        // When `ferry resume` is killed with SIGKILL at several moments: in the middle of the
        // first transfers, once some tasks finished (their names free again), right after a
        // start, and once more after two more finished...
        let moments: [(String, (Data) -> Bool)] = [
            ("three transfers past 1 MiB", { Self.tasksWithBytes($0, atLeast: 1 << 20) >= 3 }),
            ("a task done", { Self.count($0, "ended") >= 1 }),
            ("the first start", { Self.count($0, "started") >= 1 }),
            ("two tasks done", { Self.count($0, "ended") >= 2 }),
        ]
        for (moment, reached) in moments {
            let engine = try ChildProcess.spawn(executable: try ferryExecutableURL().path,
                                                arguments: ["resume", "--json", "--state-dir", state.file("state").path])
            defer { engine.kill() }
            let met = engine.waitForOutput(timeout: .seconds(60), until: reached)
            try #require(met, "never reached \(moment): \(String(decoding: engine.standardError, as: UTF8.self))")
            engine.signal(SIGKILL)
            #expect(engine.wait(timeout: .seconds(10))?.signal == SIGKILL, "killed at \(moment)")
        }

        // ...and then runs to the end.
        let last = try ferry(["resume"], state: state)
        #expect(last.exitStatus == 0, "\(last.stderr)")

        // Then every task is done under its own stable name, and nothing else is left.
        let expectedNames = ["same.bin"] + (1..<Self.count).map { "same.\($0).bin" }
        #expect(directoryListing(out) == expectedNames.sorted(), "\(directoryListing(out))")
        let list = try ferry(["list", "--json"], state: state)
        let tasks = Self.events(list.standardOutput)
        #expect(tasks.count == Self.count)
        for task in tasks {
            #expect(task["state"] as? String == "done", "\(task)")
            guard let url = (task["urls"] as? [String])?.first, let path = task["final_path"] as? String,
                  let index = Int(url.split(separator: "/").last?.dropFirst().dropLast(4) ?? "") else {
                Issue.record("task without URL or final path: \(task)")
                continue
            }
            // Byte-exact: each file holds its own task's bytes.
            #expect(try SHA256Hex.of(file: URL(fileURLWithPath: path))
                    == Pattern.sha256Hex(count: Self.size + index, seed: 40 + index), "\(path) from \(url)")
        }
    }
}
