import FerryQueue
import Foundation
import Testing
@testable import FerryRPC

/// The lists and figures a front end polls every second (`tellWaiting`, `tellStopped`,
/// `tellActive`, `getGlobalStat`) are kept between calls while the queue does not change
/// (`StatusPages`, `QueueDigest`): every change, a progress checkpoint included, shows at
/// the next call.
struct StatusListTests {
    @Test func keptListsShowEveryChangeAtTheNextCall() async throws {
        // Given a daemon's engine over a journal of three queued downloads (nothing runs them).
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try Journal.open(at: directory + "/journal.sqlite").journal
        defer { try? journal.close() }
        let ids = try journal.insert((0..<3).map { index in
            NewTask(spec: TaskSpec(urls: [try TransferURL(validating: "https://example.com/\(index)?token=s3cret")],
                                   requestedName: "f\(index)"))
        })
        let scheduler = Scheduler(journal: journal, configuration: SchedulerConfiguration(defaultDirectory: directory))
        let engine = RPCEngine(journal: journal, runner: scheduler, defaultDirectory: directory, maximumConcurrent: 1,
                               onShutdown: {})
        let dispatcher = RPCDispatcher(engine: engine, secret: nil)
        func call(_ method: String, _ params: [JSONValue] = []) async throws -> JSONValue {
            let request: JSONValue = ["jsonrpc": "2.0", "id": "1", "method": .string(method), "params": .array(params)]
            let answer = await dispatcher.answer(request.serialized(), origin: .local)
            return try #require(JSONValue.parse(answer.body)?.objectValue?["result"])
        }
        func field(_ list: JSONValue, _ key: String) -> [String?] {
            (list.arrayValue ?? []).map { $0.objectValue?[key]?.stringValue }
        }
        let keys: JSONValue = ["gid", "status", "completedLength", "files"]

        // When the same page is asked twice, then the answers are the same, keys sorted and
        // URLs masked.
        let first = try await call("aria2.tellWaiting", [.integer(0), .integer(10), keys])
        #expect(try await call("aria2.tellWaiting", [.integer(0), .integer(10), keys]) == first)
        #expect(field(first, "gid") == ids.map { GID.string(for: $0) })
        let text = String(decoding: first.serialized(), as: UTF8.self)
        #expect(text.hasPrefix(#"[{"completedLength":"0","files":[{"completedLength":"0","index":"1","length":"0","path":""#))
        #expect(text.contains("token=***") && !text.contains("s3cret"))

        // When a task gets a progress checkpoint, which does not move the journal's revision.
        try journal.recordCheckpoint(ids[1], ResumeRecord(totalLength: 100, durableOffset: 42))
        // Then the next answer has its bytes.
        #expect(field(try await call("aria2.tellWaiting", [.integer(0), .integer(10), keys]), "completedLength") == ["0", "42", "0"])

        // When one is paused and another is handed to the session ahead of need (running in
        // the journal, not started by the session yet).
        try journal.updateState(ids[0], to: .paused)
        try journal.updateState(ids[2], to: .running)
        // (listed with the waiting ones, as numWaiting counts it: a front end shows it there)
        #expect(field(try await call("aria2.tellWaiting", [.integer(0), .integer(10), keys]), "status") == ["paused", "waiting", "waiting"])
        // Then it is not active yet.
        #expect(field(try await call("aria2.tellActive", [keys]), "gid") == [])
        #expect(try await call("aria2.getGlobalStat").objectValue?["numActive"] == "0")
        // It waits in the session: tellStatus and the figures say so (with the paused and the queued one).
        let handed = try await call("aria2.tellStatus", [.string(GID.string(for: ids[2])), ["status", "connections"]])
        #expect(handed.objectValue?["status"] == "waiting" && handed.objectValue?["connections"] == "0")
        #expect(try await call("aria2.getGlobalStat").objectValue?["numWaiting"] == "3")

        // When the session starts it, then runs, then fails.
        engine.live.record(.started(ids[2]))
        #expect(field(try await call("aria2.tellActive", [keys]), "gid") == [GID.string(for: ids[2])])
        let running = try await call("aria2.getGlobalStat")
        #expect(running.objectValue?["numActive"] == "1" && running.objectValue?["numWaiting"] == "2")
        try journal.updateState(ids[2], to: .failed)
        engine.live.record(.ended(ids[2], .failed, error: nil))

        // Then every list and figure shows it at once.
        #expect(field(try await call("aria2.tellActive", [keys]), "gid") == [])
        #expect(field(try await call("aria2.tellStopped", [.integer(-1), .integer(10), keys]), "status") == ["error"])
        let stat = try await call("aria2.getGlobalStat")
        #expect(stat.objectValue?["numActive"] == "0" && stat.objectValue?["numStopped"] == "1")
        #expect(stat.objectValue?["numWaiting"] == "2")
    }

    @Test func aFailureKindSetAfterTheJournalChangedShowsOnceTheAttemptHasEnded() async throws {
        // Given a failed task whose stopped list was asked for (and kept) before the scheduler
        // noted the kind of its failure, which it does just after recording the attempt.
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try Journal.open(at: directory + "/journal.sqlite").journal
        defer { try? journal.close() }
        let id = try journal.insert(NewTask(spec: TaskSpec(urls: [try TransferURL(validating: "https://example.com/a")])))
        try journal.updateState(id, to: .running)
        try journal.updateState(id, to: .failed)
        let scheduler = Scheduler(journal: journal, configuration: SchedulerConfiguration(defaultDirectory: directory))
        let engine = RPCEngine(journal: journal, runner: scheduler, defaultDirectory: directory, maximumConcurrent: 1,
                               onShutdown: {})
        let request = StatusPages.Request(states: [.done, .failed, .cancelled], offset: 0, limit: 10, reversed: false,
                                          keys: DownloadStatus.Keys(["errorCode"]))
        let before = try engine.statusPages.answer(request, engine: engine)
        #expect(String(decoding: before.serialized(), as: UTF8.self) == #"[{"errorCode":"1"}]"#)

        // When the kind is noted and the attempt's end published.
        scheduler.failures.record(id, .checksum)
        engine.statusPages.attemptEnded()

        // Then the list says it, with the journal unchanged.
        let after = try engine.statusPages.answer(request, engine: engine)
        #expect(String(decoding: after.serialized(), as: UTF8.self) == #"[{"errorCode":"32"}]"#)
    }

    @Test func statusKeysAreWrittenInSortedOrder() {
        let names = DownloadStatus.Key.all.map(\.name)
        #expect(names == names.sorted())
        #expect(Set(names).count == DownloadStatus.Key.all.count)
    }

    private static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-rpc-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
