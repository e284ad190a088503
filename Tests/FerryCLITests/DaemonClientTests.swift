import FerryTestSupport
import Foundation
import Testing

/// `ferry add|pause|resume|retry|remove|move` act through a running daemon at once, and say
/// the same with or without one.
///
/// The daemons here read the journal once an hour (`--poll-interval 3600`): what takes effect
/// within the test took effect because the command asked the daemon, not because the daemon
/// noticed the journal change.
@Suite(.serialized) struct DaemonClientTests {
    private func ferry(_ arguments: [String], state: URL) throws -> ProcessResult {
        try run(executable: try ferryExecutableURL().path, arguments: arguments + ["--state-dir", state.path], timeout: .seconds(60))
    }

    private func slowDaemon(_ state: URL, _ arguments: [String] = []) throws -> FerryDaemon {
        try FerryDaemon.start(stateDirectory: state, arguments: ["--poll-interval", "3600"] + arguments)
    }

    private func status(_ daemon: FerryDaemon, _ id: Int) throws -> String? {
        let gid = String(repeating: "0", count: 16 - String(id, radix: 16).count) + String(id, radix: 16)
        return (try daemon.call("aria2.tellStatus", [gid, ["status"]])["result"] as? [String: Any])?["status"] as? String
    }

    private func downloadSpeed(_ daemon: FerryDaemon) throws -> Int {
        Int((try daemon.result("aria2.getGlobalStat") as? [String: Any])?["downloadSpeed"] as? String ?? "") ?? -1
    }

    private func size(_ url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
    }

    @Test func queueCommandsActThroughTheDaemonAtOnce() throws {
        // Given a daemon running one transfer at a time and three slow files (64 MiB at 256 KiB/s:
        // none can end during the test, however slow a loaded machine makes its steps; with
        // 4 MiB, a ended before b and c were added once, and b then rightly ran first).
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try FileManager.default.createDirectory(at: www.file("slow"), withIntermediateDirectories: true)
        for (index, name) in ["a", "b", "c"].enumerated() {
            try Pattern.writeFile(at: www.file("slow/\(name).bin"), count: 64 << 20, seed: index)
        }
        let nginx = try NginxServer.start(root: www.url, extraConfig: "location /slow/ { limit_rate 256k; sendfile_max_chunk 32k; }")
        defer { nginx.stop() }
        let daemon = try slowDaemon(state.url, ["--max-concurrent", "1"])
        defer { daemon.stop() }
        let out = state.file("out")
        func url(_ name: String) -> String { nginx.url("/slow/\(name).bin").absoluteString }

        // When `ferry add` queues a download, the daemon starts it.
        let added = try ferry(["add", "-d", out.path, url("a")], state: state.url)
        #expect(added.exitStatus == 0, "\(added.stderr)")
        #expect(added.stdout == "#1 queued \(url("a"))\n")
        #expect(try daemon.waitUntil(timeout: .seconds(10)) { try downloadSpeed(daemon) > 0 })

        // `ferry pause` stops its transfer (the daemon reports no speed any more)...
        let paused = try ferry(["pause", "1"], state: state.url)
        #expect(paused.exitStatus == 0 && paused.stderr == "ferry: paused 1 task\n", "\(paused.stderr)")
        #expect(try daemon.waitUntil(timeout: .seconds(3)) { try downloadSpeed(daemon) == 0 })
        #expect(try status(daemon, 1) == "paused")

        // ...and `ferry resume 1` starts it again.
        let resumed = try ferry(["resume", "1"], state: state.url)
        #expect(resumed.exitStatus == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("queued 1 task"), "\(resumed.stderr)")
        #expect(try daemon.waitUntil(timeout: .seconds(10)) { try downloadSpeed(daemon) > 0 })

        // `ferry move 3 --top` puts c before b: when a is paused, c runs next.
        #expect(try ferry(["add", "-d", out.path, url("b"), url("c")], state: state.url).exitStatus == 0)
        let moved = try ferry(["move", "3", "--top"], state: state.url)
        #expect(moved.exitStatus == 0 && moved.stderr == "ferry: #3 is now at place 1\n", "\(moved.stderr)")
        #expect(try ferry(["pause", "1"], state: state.url).exitStatus == 0)
        #expect(daemon.waitUntil(timeout: .seconds(10)) { (size(out.appendingPathComponent("c.bin.part")) ?? 0) > 0 })
        #expect(size(out.appendingPathComponent("b.bin.part")) == nil)

        // `ferry remove --delete-file` stops c and deletes its .part; b starts in its place.
        let removed = try ferry(["remove", "3", "--delete-file"], state: state.url)
        #expect(removed.exitStatus == 0 && removed.stderr == "ferry: removed 1 task; deleted 1 file\n", "\(removed.stderr)")
        #expect(daemon.waitUntil(timeout: .seconds(10)) { (size(out.appendingPathComponent("b.bin.part")) ?? 0) > 0 })
        #expect(size(out.appendingPathComponent("c.bin.part")) == nil)

        // `ferry retry` of a download that failed runs it again at once.
        #expect(try ferry(["pause", "2"], state: state.url).exitStatus == 0)
        let missing = nginx.url("/later.bin").absoluteString
        #expect(try ferry(["add", "--retries", "0", "-d", out.path, missing], state: state.url).exitStatus == 0)
        #expect(try daemon.waitUntil(timeout: .seconds(10)) { try status(daemon, 4) == "error" })
        try Pattern.writeFile(at: www.file("later.bin"), count: 100_000, seed: 9)
        let retried = try ferry(["retry", "4"], state: state.url)
        #expect(retried.exitStatus == 0 && retried.stderr == "ferry: queued again 1 task\n", "\(retried.stderr)")
        #expect(try daemon.waitUntil(timeout: .seconds(10)) { try status(daemon, 4) == "complete" })
        #expect(try SHA256Hex.of(file: out.appendingPathComponent("later.bin")) == Pattern.sha256Hex(count: 100_000, seed: 9))
    }

    @Test func commandsSayTheSameWithAndWithoutADaemon() throws {
        // Given two state directories, one run by a daemon, and the same commands for both
        // (the tasks stay paused, so nothing downloads).
        let plain = try TemporaryDirectory()
        let served = try TemporaryDirectory()
        let out = try TemporaryDirectory()
        defer { plain.remove(); served.remove(); out.remove() }
        let daemon = try slowDaemon(served.url)
        defer { daemon.stop() }
        let urls = (1...4).map { "http://user:pa55@127.0.0.1:9/f\($0).bin?token=t0k" }
        let commands: [[String]] = [
            ["add", "--paused", "-d", out.path, "-H", "Authorization: Bearer b3arer", "--priority", "2"] + urls.prefix(3),
            ["add", "--paused", "-d", out.path, "-o", "named.bin", "--limit-rate", "1M", "--retries", "3", urls[3]],
            ["pause", "1", "99"],
            ["pause", "--all"],
            ["retry", "2"],
            ["retry", "--all"],
            ["move", "3", "--top"],
            ["move", "3", "--up"],
            ["move", "99", "--bottom"],
            ["move", "1", "--to", "3"],
            ["remove", "2", "42"],
            ["remove", "--state", "cancelled", "--delete-file"],
            ["list"],
            ["list", "--json"],
            ["list", "--state", "paused"],
        ]

        // When each runs on both...
        for command in commands {
            let alone = try ferry(command, state: plain.url)
            let withDaemon = try ferry(command, state: served.url)

            // Then both say the same and end with the same status.
            #expect(alone.exitStatus == withDaemon.exitStatus, "\(command): \(alone.stderr) / \(withDaemon.stderr)")
            #expect(alone.stdout == withDaemon.stdout, "\(command)")
            #expect(alone.stderr == withDaemon.stderr, "\(command)")
        }
        let listed = try ferry(["list", "--json"], state: served.url).stdout
        #expect(!listed.contains("pa55") && !listed.contains("t0k") && !listed.contains("b3arer"), "\(listed)")
        #expect(listed.contains("\"name\":\"named.bin\""), "\(listed)")
        #expect(daemon.process.isRunning)
    }

    @Test func listShowsProgressAndLiveSpeedAndTimeLeft() throws {
        // Given a daemon downloading a slow file.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("s.bin"), count: 4 << 20, seed: 4)
        let nginx = try NginxServer.start(root: www.url, limitRate: "512k")
        defer { nginx.stop() }
        let daemon = try slowDaemon(state.url)
        defer { daemon.stop() }
        #expect(try ferry(["add", "-d", state.file("out").path, nginx.url("/s.bin").absoluteString], state: state.url).exitStatus == 0)
        #expect(try daemon.waitUntil(timeout: .seconds(10)) { try downloadSpeed(daemon) > 0 })

        // When it is listed while it runs...
        let json = try ferry(["list", "--json"], state: state.url)
        let live = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let text = try ferry(["list"], state: state.url)

        // Then the line has the live speed and the time left, and the size.
        #expect(live["state"] as? String == "running")
        #expect((live["speed"] as? NSNumber)?.intValue ?? 0 > 0, "\(json.stdout)")
        #expect(live["eta"] is NSNumber, "\(json.stdout)")
        #expect((live["percent"] as? NSNumber).map { (0...100).contains($0.intValue) } == true, "\(json.stdout)")
        let fields = text.stdout.trimmingCharacters(in: .newlines).components(separatedBy: "\t")
        #expect(fields.count >= 9 && fields[1] == "running" && fields[3] == "4.0 MiB" && fields[4].hasSuffix("/s"), "\(text.stdout)")

        // When the daemon is stopped, the journal's figures remain: the bytes on disk, no speed.
        #expect(try ferry(["stop"], state: state.url).exitStatus == 0)
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(try ferry(["list", "--json"], state: state.url).stdout.utf8)) as? [String: Any])
        #expect(stored["state"] as? String == "queued")
        #expect(stored["speed"] is NSNull && stored["eta"] is NSNull, "\(stored)")
        #expect((stored["completed_length"] as? NSNumber)?.intValue ?? 0 > 0, "\(stored)")
        #expect((stored["percent"] as? NSNumber) != nil, "\(stored)")
        let offline = try ferry(["list"], state: state.url).stdout.components(separatedBy: "\t")
        #expect(offline.count >= 9 && offline[3] == "4.0 MiB" && offline[4] == "-" && offline[5] == "-", "\(offline)")
    }

    @Test func listShowsTasksTheDaemonHoldsBackAsQueued() throws {
        // Given a daemon running one transfer at a time and three slow downloads (the
        // scheduler hands a few tasks to the engine ahead of their turn: the journal has them
        // running, the engine holds them back for the limit).
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        for index in 0..<3 { try Pattern.writeFile(at: www.file("h\(index).bin"), count: 16 << 20, seed: index) }
        let nginx = try NginxServer.start(root: www.url, limitRate: "256k")
        defer { nginx.stop() }
        let daemon = try slowDaemon(state.url, ["--max-concurrent", "1"])
        defer { daemon.stop() }
        let urls = (0..<3).map { nginx.url("/h\($0).bin").absoluteString }
        #expect(try ferry(["add", "-d", state.file("out").path] + urls, state: state.url).exitStatus == 0)
        #expect(try daemon.waitUntil(timeout: .seconds(10)) { try downloadSpeed(daemon) > 0 })

        // When the queue is listed...
        let json = try ferry(["list", "--json"], state: state.url).stdout
        let states = json.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["state"] as? String
        }
        let running = try ferry(["list", "--state", "running"], state: state.url).stdout
        let queued = try ferry(["list", "--state", "queued"], state: state.url).stdout

        // Then one task is running, as the limit says, and the two others are queued, in
        // every form of the list and as aria2.tellStatus says.
        #expect(states == ["running", "queued", "queued"], "\(json)")
        #expect(running.split(separator: "\n").count == 1 && running.hasPrefix("#1\trunning"), "\(running)")
        #expect(queued.split(separator: "\n").count == 2 && queued.hasPrefix("#2\tqueued"), "\(queued)")
        #expect(try status(daemon, 2) == "waiting" && status(daemon, 3) == "waiting")
    }

    @Test func tasksTheDaemonHoldsBackAreListedAndMovedAsWaiting() throws {
        // Given a daemon running one transfer at a time and three slow downloads (the two
        // behind the first are handed to the engine ahead of need, held there).
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        for index in 0..<3 { try Pattern.writeFile(at: www.file("w\(index).bin"), count: 16 << 20, seed: index) }
        let nginx = try NginxServer.start(root: www.url, limitRate: "256k")
        defer { nginx.stop() }
        let daemon = try slowDaemon(state.url, ["--max-concurrent", "1"])
        defer { daemon.stop() }
        let urls = (0..<3).map { nginx.url("/w\($0).bin").absoluteString }
        #expect(try ferry(["add", "-d", state.file("out").path] + urls, state: state.url).exitStatus == 0)
        #expect(try daemon.waitUntil(timeout: .seconds(10)) { try downloadSpeed(daemon) > 0 })
        func waiting(_ offset: Int, _ count: Int) throws -> [String] {
            (try daemon.result("aria2.tellWaiting", [offset, count, ["gid"]]) as? [[String: Any]] ?? []).compactMap { $0["gid"] as? String }
        }
        let second = "0000000000000002"
        let third = "0000000000000003"

        // When a front end lists the waiting tasks and moves the last one first...
        let listed = try waiting(0, 1000)
        let last = try waiting(-1, 1)
        let moved = try daemon.result("aria2.changePosition", [third, 0, "POS_SET"]) as? Int

        // Then both are listed, in queue order, and the move takes effect.
        #expect(listed == [second, third])
        #expect(last == [third])
        #expect(moved == 0)
        // (The engine gives back and takes again the tasks it holds as the queue changes: the
        // list is read until it settles, at most 10 s.)
        #expect(try daemon.waitUntil(timeout: .seconds(10)) { try waiting(0, 1000) == [third, second] })
    }

    @Test func aTaskRunningUnderANumberedNameIsShownUnderIt() throws {
        // Given a daemon and the same slow URL added twice into one directory (the second
        // writes big.1.bin: the name is taken by the first).
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("big.bin"), count: 16 << 20, seed: 6)
        let nginx = try NginxServer.start(root: www.url, limitRate: "256k")
        defer { nginx.stop() }
        let daemon = try slowDaemon(state.url)
        defer { daemon.stop() }
        let out = state.file("out")
        let url = nginx.url("/big.bin").absoluteString
        #expect(try ferry(["add", "-d", out.path, url, url], state: state.url).exitStatus == 0)
        #expect(daemon.waitUntil(timeout: .seconds(10)) {
            size(out.appendingPathComponent("big.bin.part")) != nil && size(out.appendingPathComponent("big.1.bin.part")) != nil
        })

        // When both run and are listed...
        let text = try ferry(["list"], state: state.url).stdout.split(separator: "\n").map { $0.components(separatedBy: "\t") }
        let json = try ferry(["list", "--json"], state: state.url).stdout.split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
        let paths = try [1, 2].map { id -> String? in
            let gid = String(repeating: "0", count: 15) + String(id)
            let files = (try daemon.result("aria2.tellStatus", [gid, ["files"]]) as? [String: Any])?["files"] as? [[String: Any]]
            return files?.first?["path"] as? String
        }

        // Then each shows the name it writes, in the list, its JSON and aria2.tellStatus.
        #expect(text.map { $0.count > 7 ? $0[7] : "" } == ["big.bin", "big.1.bin"], "\(text)")
        #expect(json.map { $0["name"] as? String } == ["big.bin", "big.1.bin"], "\(json)")
        #expect(paths == [out.appendingPathComponent("big.bin").path, out.appendingPathComponent("big.1.bin").path], "\(paths)")
    }

    @Test func aRunningDownloadRemovedWithoutDeleteFileKeepsItsPartialFile() throws {
        // Given a daemon running two slow downloads with bytes on disk.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        for name in ["k", "r", "d"] { try Pattern.writeFile(at: www.file("\(name).bin"), count: 16 << 20, seed: 8) }
        let nginx = try NginxServer.start(root: www.url, limitRate: "256k")
        defer { nginx.stop() }
        let daemon = try slowDaemon(state.url)
        defer { daemon.stop() }
        let out = state.file("out")
        let parts = ["k", "r", "d"].map { out.appendingPathComponent("\($0).bin.part") }
        #expect(try ferry(["add", "-d", out.path] + ["k", "r", "d"].map { nginx.url("/\($0).bin").absoluteString },
                          state: state.url).exitStatus == 0)
        #expect(daemon.waitUntil(timeout: .seconds(10)) { parts.allSatisfy { (size($0) ?? 0) > 0 } })

        // When the first is removed by `ferry remove`, the second by aria2.remove, the third by
        // `ferry remove --delete-file`...
        #expect(try ferry(["remove", "1"], state: state.url).exitStatus == 0)
        #expect(try daemon.result("aria2.remove", ["0000000000000002"]) as? String == "0000000000000002")
        #expect(try ferry(["remove", "3", "--delete-file"], state: state.url).exitStatus == 0)

        // Then once their transfers ended, the first two keep their partial files, as the help
        // and docs/RPC.md say, and only the third's is gone.
        #expect(try daemon.waitUntil(timeout: .seconds(10)) { try downloadSpeed(daemon) == 0 })
        #expect(try status(daemon, 2) == "removed")
        #expect(daemon.waitUntil(timeout: .seconds(10)) { size(parts[2]) == nil }, "\(parts.map(size))")
        #expect((size(parts[0]) ?? 0) > 0 && (size(parts[1]) ?? 0) > 0, "\(parts.map(size))")
    }

    @Test func aDownloadAddedOverRPCWithoutADirKeepsTheDaemonsDirectoryOfThatTime() throws {
        // Given a daemon saving into `first` by default, and a download added over RPC with
        // no `dir`, half done when the daemon stops.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("f.bin"), count: 4 << 20, seed: 5)
        let nginx = try NginxServer.start(root: www.url, limitRate: "1m")
        defer { nginx.stop() }
        let first = state.file("first")
        let second = state.file("second")
        let daemon = try slowDaemon(state.url, ["--dir", first.path])
        let gid = try #require(try daemon.result("aria2.addUri", [[nginx.url("/f.bin").absoluteString]]) as? String)
        let listed = try ferry(["list", "--json"], state: state.url).stdout
        let dir = (try daemon.result("aria2.tellStatus", [gid, ["dir"]]) as? [String: Any])?["dir"] as? String
        #expect(daemon.waitUntil(timeout: .seconds(10)) { (size(first.appendingPathComponent("f.bin.part")) ?? 0) > 0 })
        daemon.stop()

        // When a daemon with another default directory runs the queue again...
        let again = try slowDaemon(state.url, ["--dir", second.path])
        defer { again.stop() }

        // Then the task said where it saves from the start, and ends there, byte-exact, from
        // its partial file.
        #expect(listed.contains("\"dir\":\"\(first.path)\""), "\(listed)")
        #expect(dir == first.path)
        #expect(try again.waitUntil(timeout: .seconds(30)) { try status(again, 1) == "complete" })
        #expect(try SHA256Hex.of(file: first.appendingPathComponent("f.bin")) == Pattern.sha256Hex(count: 4 << 20, seed: 5))
        #expect(size(second.appendingPathComponent("f.bin")) == nil)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script (util-linux) is not installed"))
    func listOnATerminalHasAHeaderAndAlignedColumns() throws {
        // Given a queue with one paused task.
        let state = try TemporaryDirectory()
        defer { state.remove() }
        #expect(try ferry(["add", "--paused", "-d", state.file("out").path, "http://127.0.0.1:9/a.bin"], state: state.url).exitStatus == 0)

        // When it is listed on a terminal (`script` gives the command one).
        let command = [try ferryExecutableURL().path, "list", "--state-dir", state.path].joined(separator: " ")
        let listed = try run(executable: "/usr/bin/script", arguments: ["-qec", command, "/dev/null"], timeout: .seconds(60))

        // Then a header names the columns, and the task's line is aligned under it.
        #expect(listed.exitStatus == 0, "\(listed.stdout)")
        let lines = listed.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.count == 2, "\(lines)")
        let header = try #require(lines.first)
        for name in ["ID", "STATE", "%", "SIZE", "SPEED", "ETA", "NAME", "URL"] {
            #expect(header.contains(name), "\(header)")
        }
        let row = try #require(lines.last)
        #expect(row.hasPrefix("#1 ") && row.contains("paused") && !row.contains("\t"), "\(row)")
        #expect(row.range(of: "a.bin")?.lowerBound.utf16Offset(in: row) == header.range(of: "NAME")?.lowerBound.utf16Offset(in: header), "\(lines)")
    }
}
