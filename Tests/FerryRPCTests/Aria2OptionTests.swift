import FerryKit
import FerryQueue
import Foundation
import Testing
@testable import FerryRPC

/// aria2's option calls as its front ends use them: one option table answered in aria2's
/// types, each option applied on its own, an option Ferry does not use accepted and listed,
/// a bad value an error that changes nothing; aria2's error texts; `saveSession` writes a
/// session file that `ferry add -i`'s reader takes back.
struct Aria2OptionTests {
    /// `Client` calls methods on a fixture's dispatcher as a client would.
    struct Client {
        let dispatcher: RPCDispatcher

        func call(_ method: String, _ params: [JSONValue] = []) async -> [String: JSONValue] {
            let request: JSONValue = ["jsonrpc": "2.0", "id": "1", "method": .string(method), "params": .array(params)]
            return JSONValue.parse(await dispatcher.answer(request.serialized(), origin: .local).body)?.objectValue ?? [:]
        }

        func result(_ method: String, _ params: [JSONValue] = []) async throws -> JSONValue {
            let answer = await call(method, params)
            return try #require(answer["result"], "\(method): \(answer)")
        }

        func error(_ method: String, _ params: [JSONValue] = []) async -> String? {
            await call(method, params)["error"]?.objectValue?["message"]?.stringValue
        }
    }

    @Test func aPausedTasksDirLimitAndHeadersChangeTogetherAndAnUnusedOptionIsListed() async throws {
        // Given a paused download.
        let fixture = try EngineFixture()
        defer { fixture.close() }
        let client = Client(dispatcher: fixture.dispatcher())
        let gid = try #require(try await client.result("aria2.addUri", [["https://example.com/a.iso"], ["pause": "true"]]).stringValue)
        let id = try #require(GID.taskID(gid))
        let elsewhere = fixture.directory + "/elsewhere"

        // When dir, out, a limit, headers, a user agent and an option Ferry does not use are
        // changed in one call (aria2p's set_options).
        let answer = await client.call("aria2.changeOption", [.string(gid), [
            "dir": .string(elsewhere), "out": "b.iso", "max-download-limit": "512K", "header": ["X-One: 1", "X-Two: 2"],
            "user-agent": "front/1.0", "split": "4", "bt-max-peers": "10",
        ]])

        // Then the call is OK and each option Ferry uses is applied.
        #expect(answer["result"]?.stringValue == "OK", "\(answer)")
        let task = try #require(try fixture.journal.task(id))
        #expect(task.spec.destinationDirectory == elsewhere && task.spec.requestedName == "b.iso")
        #expect(task.spec.options.maxDownloadLimit == 512 * 1024 && task.spec.options.connections == 4)
        #expect(task.spec.headers.map(\.masked) == ["X-One: 1", "X-Two: 2", "User-Agent: front/1.0"])
        // getOption answers aria2's keys, every value a string, header newline-joined, and the
        // option Ferry does not use at aria2's default, named in ferry-ignored.
        let options = try #require(try await client.result("aria2.getOption", [.string(gid)]).objectValue)
        #expect(options.count >= 75, "\(options.count) keys")
        #expect(options.values.allSatisfy { $0.stringValue != nil })
        #expect(options["dir"]?.stringValue == elsewhere && options["out"]?.stringValue == "b.iso")
        #expect(options["header"]?.stringValue == "X-One: 1\nX-Two: 2")
        #expect(options["user-agent"]?.stringValue == "front/1.0")
        #expect(options["max-download-limit"]?.stringValue == "524288" && options["split"]?.stringValue == "4")
        #expect(options["bt-max-peers"]?.stringValue == "55" && options["ferry-ignored"]?.stringValue == "bt-max-peers")
    }

    @Test func aBadValueChangesNothingAndADownloadWithBytesKeepsItsPlace() async throws {
        // Given a queued download, and a paused one that has kept bytes of its file.
        let fixture = try EngineFixture(tasks: 2)
        defer { fixture.close() }
        let client = Client(dispatcher: fixture.dispatcher())
        let ids = try fixture.journal.tasks(in: nil, limit: 2).map(\.id)
        let before = try #require(try fixture.journal.task(ids[0]))

        // When a call gives a good dir and a bad split, then a bad rate.
        let badSplit = await client.error("aria2.changeOption", [.string(GID.string(for: ids[0])),
                                                                   ["dir": .string(fixture.directory + "/x"), "split": "99"]])
        let badRate = await client.error("aria2.changeOption", [.string(GID.string(for: ids[0])), ["max-download-limit": "fast"]])

        // Then each is an error naming the option, and nothing changed.
        #expect(badSplit?.contains("split") == true && badRate?.contains("max-download-limit") == true)
        #expect(try fixture.journal.task(ids[0])?.spec == before.spec)

        // When the download with bytes is given another dir with a limit.
        try fixture.journal.recordCheckpoint(ids[1], ResumeRecord(totalLength: 1000, durableOffset: 100))
        let gid = GID.string(for: ids[1])
        let answer = await client.call("aria2.changeOption", [.string(gid), ["dir": .string(fixture.directory + "/y"), "max-download-limit": "1M"]])

        // Then the limit applies and dir is listed as ignored: its partial file is not lost.
        #expect(answer["result"]?.stringValue == "OK", "\(answer)")
        let task = try #require(try fixture.journal.task(ids[1]))
        #expect(task.spec.destinationDirectory == nil && task.spec.options.maxDownloadLimit == 1 << 20)
        let options = try #require(try await client.result("aria2.getOption", [.string(gid)]).objectValue)
        #expect(options["ferry-ignored"]?.stringValue == "dir")
    }

    @Test func tenGlobalOptionsApplyEachOnItsOwnAndNewTasksTakeThem() async throws {
        // Given an engine.
        let fixture = try EngineFixture()
        defer { fixture.close() }
        let client = Client(dispatcher: fixture.dispatcher())
        let downloads = fixture.directory + "/downloads"

        // When ten options are set at once, as a front end's settings page saves them.
        let answer = await client.call("aria2.changeGlobalOption", [[
            "max-concurrent-downloads": "2", "max-overall-download-limit": "1M", "dir": .string(downloads),
            "split": "4", "max-connection-per-server": "4", "user-agent": "front/1.0", "max-tries": "3",
            "disk-cache": "32M", "min-split-size": "2M", "save-session": .string(fixture.directory + "/session.txt"),
        ]])

        // Then all are OK, getGlobalOption answers aria2's keys as strings with the new values,
        // and aria2's defaults for those Ferry does not use, which it names.
        #expect(answer["result"]?.stringValue == "OK", "\(answer)")
        let global = try #require(try await client.result("aria2.getGlobalOption").objectValue)
        #expect(global.count >= 128, "\(global.count) keys")
        #expect(global.values.allSatisfy { $0.stringValue != nil })
        for (key, value) in ["max-concurrent-downloads": "2", "max-overall-download-limit": "1048576", "dir": downloads,
                             "split": "4", "user-agent": "front/1.0", "disk-cache": "16777216", "max-tries": "3",
                             "min-split-size": "2097152", "save-session": fixture.directory + "/session.txt",
                             "ferry-ignored": "disk-cache"] {
            #expect(global[key]?.stringValue == value, "\(key): \(String(describing: global[key]))")
        }
        #expect(await fixture.engine.runner.configuration.maximumConcurrent == 2)
        // A download added afterwards takes the directory and the task options.
        let gid = try #require(try await client.result("aria2.addUri", [["https://example.com/new.bin"]]).stringValue)
        let newID = try #require(GID.taskID(gid))
        let task = try #require(try fixture.journal.task(newID))
        #expect(task.spec.destinationDirectory == downloads && task.spec.options.connections == 4 && task.spec.options.retries == 2)
        #expect(task.spec.options.minSplitSize == 2 << 20)
        #expect(task.spec.headers.map(\.masked) == ["User-Agent: front/1.0"])

        // When a later call carries a bad value, nothing of it applies.
        let bad = await client.error("aria2.changeGlobalOption", [["max-concurrent-downloads": "5", "split": "0"]])
        #expect(bad?.contains("split") == true)
        #expect(await fixture.engine.runner.configuration.maximumConcurrent == 2)
    }

    @Test func addUriAcceptsAnUnusedOptionAndListsIt() async throws {
        // Given an engine whose notices are collected.
        let fixture = try EngineFixture()
        defer { fixture.close() }
        let client = Client(dispatcher: fixture.dispatcher())
        let notices = fixture.engine.options.notices.subscribe()

        // When a download is added with an option Ferry does not use.
        let gid = try #require(try await client.result("aria2.addUri", [["https://example.com/a"], ["follow-torrent": "false"]]).stringValue)

        // Then the answer is its GID, its getOption lists the option, and a notice names it.
        let options = try #require(try await client.result("aria2.getOption", [.string(gid)]).objectValue)
        #expect(options["ferry-ignored"]?.stringValue == "follow-torrent" && options["follow-torrent"]?.stringValue == "true")
        var iterator = notices.makeAsyncIterator()
        let notice = await iterator.next()
        #expect(notice?.contains("GID#\(gid): option follow-torrent") == true, "\(String(describing: notice))")

        // When its result is removed, nothing of it is kept.
        _ = try await client.result("aria2.remove", [.string(gid)])
        _ = try await client.result("aria2.removeDownloadResult", [.string(gid)])
        #expect(fixture.engine.options.ignored(of: try #require(GID.taskID(gid))).isEmpty)
    }

    @Test func errorsUseAria2sWordsAndAnUntriedURIIsWaiting() async throws {
        // Given a queued download with a mirror and a paused one.
        let fixture = try EngineFixture()
        defer { fixture.close() }
        let client = Client(dispatcher: fixture.dispatcher())
        let queued = try #require(try await client.result("aria2.addUri", [["https://example.com/a", "https://mirror.example/a"]]).stringValue)
        let paused = try #require(try await client.result("aria2.addUri", [["https://example.com/b"], ["pause": "true"]]).stringValue)

        // Then what cannot be done is said as aria2 says it.
        #expect(await client.error("aria2.unpause", [.string(queued)]) == "GID#\(queued) cannot be unpaused now")
        #expect(await client.error("aria2.pause", [.string(paused)]) == "GID#\(paused) cannot be paused now")
        #expect(await client.error("aria2.removeDownloadResult", [.string(queued)]) == "Could not remove download result of GID#\(queued)")
        #expect(await client.error("aria2.saveSession") == "Filename is not given.")
        _ = try await client.result("aria2.remove", [.string(paused)])
        #expect(await client.error("aria2.changeOption", [.string(paused), ["split": "2"]]) == "Cannot change option for GID#\(paused)")
        // And a URI no transfer took is waiting.
        let uris = try #require(try await client.result("aria2.getUris", [.string(queued)]).arrayValue)
        #expect(uris.map { $0.objectValue?["status"]?.stringValue } == ["waiting", "waiting"])
    }

    @Test func saveSessionWritesWhatAddInputReadsBack() async throws {
        // Given a paused download with options and a queued one with mirrors, and a session file set.
        let fixture = try EngineFixture()
        defer { fixture.close() }
        let client = Client(dispatcher: fixture.dispatcher())
        let session = fixture.directory + "/session.txt"
        let profile = fixture.directory + "/profile"
        try "export EDITOR=vi\n".write(toFile: profile, atomically: true, encoding: .utf8)
        let refused = await client.error("aria2.changeGlobalOption", [["save-session": .string(profile)]])
        #expect(refused?.contains("not a session file") == true, "\(String(describing: refused))")
        _ = try await client.result("aria2.changeGlobalOption", [["save-session": .string(session)]])
        _ = try await client.result("aria2.addUri", [["https://example.com/a.iso"], [
            "pause": "true", "out": "a.iso", "header": "X-Token: t", "split": "3", "max-download-limit": "100K",
        ]])
        _ = try await client.result("aria2.addUri", [["https://example.com/b", "https://mirror.example/b"]])

        // When the session is saved.
        #expect(try await client.result("aria2.saveSession").stringValue == "OK")

        // Then the file holds both in aria2's input-file format, mode 0600, and the batch reader
        // of `ferry add -i` reads the same tasks back (the GID lines as a notice).
        let text = try String(contentsOfFile: session, encoding: .utf8)
        #expect(text.hasPrefix("https://example.com/a.iso\n gid="))
        #expect(text.contains("https://example.com/b\thttps://mirror.example/b\n"))
        #expect(text.contains(" pause=true\n") && text.contains(" header=X-Token: t\n"))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: session)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue & 0o777 == 0o600)
        let reader = try BatchInputReader.open(path: session, standardInput: FileHandle.standardInput)
        var entries: [BatchEntry] = []
        var problems: [BatchItem] = []
        try reader.forEach { item in
            if case .entry(let entry) = item { entries.append(entry) } else if case .error = item { problems.append(item) }
        }
        #expect(problems.isEmpty, "\(problems)")
        let saved = try fixture.journal.tasks(in: nil, limit: 10)
        #expect(entries.map(\.task.spec.urls) == saved.map(\.spec.urls))
        #expect(entries.map(\.task.spec.headers) == saved.map(\.spec.headers))
        #expect(entries.map(\.task.spec.requestedName) == saved.map(\.spec.requestedName))
        #expect(entries.map(\.task.spec.options) == saved.map(\.spec.options))
        #expect(entries.map(\.task.spec.destinationDirectory) == saved.map { $0.spec.destinationDirectory })
        #expect(entries.map(\.task.startsPaused) == [true, false])
        // A file of another kind named as the session file was refused and left as it was.
        #expect(try String(contentsOfFile: profile, encoding: .utf8) == "export EDITOR=vi\n")

        // When it is saved again over the session file it wrote, the file is replaced whole.
        #expect(try await client.result("aria2.saveSession").stringValue == "OK")
        #expect(try String(contentsOfFile: session, encoding: .utf8) == text)
    }
}
