import FerryQueue
import Foundation
import Testing
@testable import FerryRPC

/// `aria2.addUri` writes its task in one journal transaction, at the place asked among the
/// waiting tasks.
struct AddUriTests {
    @Test func aTaskAddedAtAPlaceIsOneChangeOfTheJournal() async throws {
        // Given a daemon's engine over a journal of three queued downloads (nothing runs them).
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-rpc-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try Journal.open(at: directory + "/journal.sqlite").journal
        defer { try? journal.close() }
        let ids = try journal.insert((0..<3).map { index in
            NewTask(spec: TaskSpec(urls: [try TransferURL(validating: "https://example.com/\(index)")]))
        })
        let scheduler = Scheduler(journal: journal, configuration: SchedulerConfiguration(defaultDirectory: directory))
        let engine = RPCEngine(journal: journal, runner: scheduler, defaultDirectory: directory, maximumConcurrent: 1,
                               onShutdown: {})
        let dispatcher = RPCDispatcher(engine: engine, secret: nil)
        func addUri(_ params: [JSONValue]) async throws -> TaskID {
            let request: JSONValue = ["jsonrpc": "2.0", "id": "1", "method": "aria2.addUri", "params": .array(params)]
            let answer = await dispatcher.answer(request.serialized(), origin: .local)
            let gid = try #require(JSONValue.parse(answer.body)?.objectValue?["result"]?.stringValue)
            return try #require(GID.taskID(gid))
        }
        let revision = try journal.revision()

        // When a download is added at place 1 (the second waiting task), then one at the end.
        let second = try await addUri([["https://example.com/second"], [:], .integer(1)])
        let last = try await addUri([["https://example.com/last"], [:]])

        // Then the first is second in the queue and the other last, and each call was one
        // change of the journal.
        #expect(try journal.tasks(in: nil, limit: 10).map(\.id) == [ids[0], second, ids[1], ids[2], last])
        #expect(try journal.revision() == revision + 2)
    }
}
