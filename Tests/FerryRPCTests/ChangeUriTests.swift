import FerryQueue
import Foundation
import Testing
@testable import FerryRPC

/// `aria2.changeUri` edits a waiting task's URIs as aria2 does and keeps its bytes' record.
struct ChangeUriTests {
    @Test func urisAreDeletedOnceAndAddedAtThePositionAskedAndTheAnswerCountsThem() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-rpc-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try Journal.open(at: directory + "/journal.sqlite").journal
        defer { try? journal.close() }
        let urls = try ["http://a.example/f", "http://b.example/f"].map { text throws(QueueError) in try TransferURL(validating: text) }
        let id = try journal.insert(NewTask(spec: TaskSpec(urls: urls), startsPaused: true))
        let scheduler = Scheduler(journal: journal, configuration: SchedulerConfiguration(defaultDirectory: directory))
        let engine = RPCEngine(journal: journal, runner: scheduler, defaultDirectory: directory, maximumConcurrent: 1, onShutdown: {})
        let dispatcher = RPCDispatcher(engine: engine, secret: nil)
        func call(_ params: [JSONValue]) async -> JSONValue? {
            let request: JSONValue = ["jsonrpc": "2.0", "id": "1", "method": "aria2.changeUri", "params": .array(params)]
            return JSONValue.parse(await dispatcher.answer(request.serialized(), origin: .local).body)
        }
        let gid = JSONValue.string(GID.string(for: id))

        let answer = await call([gid, .integer(1), ["http://a.example/f", "http://nowhere.example/f"], ["http://c.example/f"], .integer(0)])

        #expect(answer?.objectValue?["result"] == [.integer(1), .integer(1)])
        #expect(try journal.task(id)?.spec.urls.map(\.string) == ["http://c.example/f", "http://b.example/f"])
        #expect(try journal.task(id)?.state == .paused)

        // Emptying the list, or another file index, is refused and changes nothing.
        let empty = await call([gid, .integer(1), ["http://c.example/f", "http://b.example/f"], []])
        #expect(empty?.objectValue?["error"] != nil)
        let index = await call([gid, .integer(2), [], ["http://d.example/f"]])
        #expect(index?.objectValue?["error"] != nil)
        #expect(try journal.task(id)?.spec.urls.count == 2)
    }
}
