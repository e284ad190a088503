import FerryQueue
import Foundation
import Testing
@testable import FerryRPC

/// `aria2.addMetalink` queues one task per file of a base64 Metalink, in one journal change:
/// its sources best first, its name under `dir`, its strongest hash to check.
struct AddMetalinkTests {
    @Test func aMetalinksFilesAreQueuedWithTheirSourcesNamesAndHashes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-rpc-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try Journal.open(at: directory + "/journal.sqlite").journal
        defer { try? journal.close() }
        let scheduler = Scheduler(journal: journal, configuration: SchedulerConfiguration(defaultDirectory: directory))
        let engine = RPCEngine(journal: journal, runner: scheduler, defaultDirectory: directory, maximumConcurrent: 1, onShutdown: {})
        let dispatcher = RPCDispatcher(engine: engine, secret: nil)
        func call(_ params: [JSONValue]) async -> JSONValue? {
            let request: JSONValue = ["jsonrpc": "2.0", "id": "1", "method": "aria2.addMetalink", "params": .array(params)]
            return JSONValue.parse(await dispatcher.answer(request.serialized(), origin: .local).body)
        }
        let sha = String(repeating: "ab", count: 32)
        let document = """
            <metalink xmlns="urn:ietf:params:xml:ns:metalink">
              <file name="iso/a.iso"><hash type="md5">00112233445566778899aabbccddeeff</hash><hash type="sha-256">\(sha)</hash>
                <url priority="1" location="us">http://us.example/a.iso</url><url priority="2" location="de">http://de.example/a.iso</url></file>
              <file name="b.txt"><url>https://b.example/b.txt</url></file>
            </metalink>
            """
        let revision = try journal.revision()

        let answer = await call([.string(Data(document.utf8).base64EncodedString()), ["dir": .string(directory + "/out"), "metalink-location": "de"]])

        let result = answer?.objectValue?["result"]?.arrayValue ?? []
        let gids = result.compactMap(\.stringValue)
        #expect(gids.count == 2)
        let tasks = try journal.tasks(in: nil, limit: 10)
        #expect(tasks.map { $0.spec.urls.map(\.string) } == [["http://de.example/a.iso", "http://us.example/a.iso"], ["https://b.example/b.txt"]])
        #expect(tasks.map(\.spec.requestedName) == ["a.iso", "b.txt"])
        #expect(tasks.map(\.spec.destinationDirectory) == [directory + "/out/iso", directory + "/out"])
        #expect(tasks.first?.spec.checksum?.hex == sha && tasks.last?.spec.checksum == nil)
        #expect(try journal.revision() == revision + 1)

        // A hostile Metalink is refused whole, with aria2's error shape, and queues nothing.
        let hostile = await call([.string(Data("<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"../x\"><url>http://h/x</url></file></metalink>".utf8).base64EncodedString())])
        #expect(hostile?.objectValue?["error"]?.objectValue?["message"]?.stringValue?.contains("leaves the download directory") == true)
        let notBase64 = await call([.string("%%%")])
        #expect(notBase64?.objectValue?["error"] != nil)
        #expect(try journal.tasks(in: nil, limit: 10).count == 2)
    }
}
