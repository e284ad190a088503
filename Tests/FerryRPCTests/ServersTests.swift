import FerryKit
import FerryQueue
import Foundation
import Testing
@testable import FerryRPC

/// `getServers`, `getUris` and `tellStatus`'s `ferry-sources` of a download fetched from
/// several sources at once, from the progress its engine reports (what
/// `MultiSourceDownloadTests` shows a real download reports).
@Suite struct ServersTests {
    @Test func aDownloadFromSeveralSourcesListsEachSourcesStateAndSpeed() async throws {
        let fixture = try EngineFixture()
        defer { fixture.close() }
        let urls = ["http://127.0.0.1:1/a/f.bin", "http://user:secret@127.0.0.1:2/b/f.bin", "http://127.0.0.1:3/c/f.bin"]
        let id = try #require(try fixture.journal.insert([NewTask(spec: TaskSpec(urls: urls.map { try TransferURL(validating: $0) }))]).first)
        let dispatcher = fixture.dispatcher()
        func answer(_ method: String, _ params: [JSONValue]) async -> [String: JSONValue] {
            let request: JSONValue = ["jsonrpc": "2.0", "id": "1", "method": .string(method), "params": .array(params)]
            return JSONValue.parse(await dispatcher.answer(request.serialized(), origin: .local).body)?.objectValue ?? [:]
        }
        let gid = JSONValue.string(GID.string(for: id))

        // Given a task that is not transferring, getServers is aria2's error.
        let idle = await answer("aria2.getServers", [gid])
        #expect(idle["error"]?.objectValue?["message"]?.stringValue == "No active download for GID#\(GID.string(for: id))")

        // When the engine runs it from three sources: one active, one demoted, one dropped.
        try fixture.journal.updateState(id, to: .running)
        var progress = TransferProgress(receivedBytes: 300, expectedReceivedBytes: 1000, bytesPerSecond: 150)
        progress.connections = 3
        progress.sources = [
            SourceReport(url: try #require(URL(string: urls[0])), state: "active", connections: 2, bytes: 200, speed: 100, badPieces: 0, reason: nil),
            SourceReport(url: try #require(URL(string: urls[1])), state: "demoted", connections: 1, bytes: 100, speed: 50, badPieces: 1, reason: nil),
            SourceReport(url: try #require(URL(string: urls[2])), state: "dropped", connections: 0, bytes: 0, speed: 0, badPieces: 0, reason: "answered 404"),
        ]
        fixture.engine.live.record(.started(id))
        fixture.engine.live.record(.progress(id, progress))

        // Then getServers lists every source with aria2's keys and Ferry's, the login masked.
        let servers = try #require(await answer("aria2.getServers", [gid])["result"]?.arrayValue?.first?.objectValue)
        #expect(servers["index"] == "1")
        let entries = try #require(servers["servers"]?.arrayValue?.compactMap { $0.objectValue })
        #expect(entries.map { $0["uri"]?.stringValue } == [urls[0], "http://user:***@127.0.0.1:2/b/f.bin", urls[2]])
        #expect(entries.map { $0["downloadSpeed"]?.stringValue } == ["100", "50", "0"])
        #expect(entries.map { $0["ferry-state"]?.stringValue } == ["active", "demoted", "dropped"])
        #expect(entries[2]["ferry-reason"] == "answered 404" && entries[1]["ferry-bad-pieces"] == "1")
        #expect(!String(decoding: JSONValue.array(entries.map(JSONValue.object)).serialized(), as: UTF8.self).contains("secret"))

        // getUris marks the sources a connection took as used, the others waiting.
        let uris = try #require(await answer("aria2.getUris", [gid])["result"]?.arrayValue?.compactMap { $0.objectValue })
        #expect(uris.map { $0["status"]?.stringValue } == ["used", "used", "used"])

        // tellStatus answers ferry-sources when asked (and with every key).
        let status = try #require(await answer("aria2.tellStatus", [gid, ["gid", "ferry-sources"]])["result"]?.objectValue)
        let listed = try #require(status["ferry-sources"]?.arrayValue?.compactMap { $0.objectValue })
        #expect(listed.map { $0["ferry-state"]?.stringValue } == ["active", "demoted", "dropped"])
        #expect(listed.map { $0["ferry-bytes"]?.stringValue } == ["200", "100", "0"])
        let narrow = try #require(await answer("aria2.tellStatus", [gid, ["gid"]])["result"]?.objectValue)
        #expect(narrow["ferry-sources"] == nil)

        // The front ends' feed (the UI through a daemon) carries them with the progress.
        let feed = try #require(await answer("ferry.activity", [])["result"]?.objectValue)
        let entry = try #require(feed["progress"]?.arrayValue?.first?.objectValue)
        #expect(entry["sources"]?.arrayValue?.compactMap { $0.objectValue?["ferry-state"]?.stringValue } == ["active", "demoted", "dropped"])
    }

    @Test func aDownloadFromOneSourceHasOneServerWithTheTasksSpeed() async throws {
        let fixture = try EngineFixture(tasks: 1)
        defer { fixture.close() }
        let id = TaskID(rawValue: 1)
        try fixture.journal.updateState(id, to: .running)
        fixture.engine.live.record(.started(id))
        fixture.engine.live.record(.progress(id, TransferProgress(receivedBytes: 10, expectedReceivedBytes: 100, bytesPerSecond: 42)))
        let request: JSONValue = ["jsonrpc": "2.0", "id": "1", "method": "aria2.getServers", "params": [.string(GID.string(for: id))]]
        let answer = JSONValue.parse(await fixture.dispatcher().answer(request.serialized(), origin: .local).body)
        let servers = try #require(answer?.objectValue?["result"]?.arrayValue?.first?.objectValue?["servers"]?.arrayValue)
        #expect(servers.count == 1)
        #expect(servers.first?.objectValue?["uri"] == "https://example.com/files/0.bin")
        #expect(servers.first?.objectValue?["downloadSpeed"] == "42")
        #expect(servers.first?.objectValue?["ferry-state"] == nil)
    }
}
