import FerryQueue
import Foundation
import Testing
@testable import FerryRPC

/// Over TCP, a `dir` with a part starting with '.' is refused by `aria2.addUri` and
/// `ferry.add`: a remote client cannot write into `~/.ssh` or `x/.config`.
struct DotDirectoryTests {
    @Test func aDotDirectoryOverTCPIsRefusedAndNothingIsQueuedOrCreated() async throws {
        // Given a dispatcher with a secret over a fresh journal.
        let fixture = try EngineFixture()
        defer { fixture.close() }
        let (directory, journal) = (fixture.directory, fixture.journal)
        let dispatcher = fixture.dispatcher(secret: "a-long-enough-secret")
        func answer(_ method: String, _ params: [JSONValue], origin: RPCOrigin) async -> [String: JSONValue]? {
            let request: JSONValue = ["jsonrpc": "2.0", "id": "1", "method": .string(method),
                                      "params": .array(["token:a-long-enough-secret"] + params)]
            return JSONValue.parse(await dispatcher.answer(request.serialized(), origin: origin).body)?.objectValue
        }

        // When downloads into dot directories are added over TCP.
        let ssh = await answer("aria2.addUri", [["https://example.com/k"], ["dir": .string(directory + "/.ssh"), "out": "authorized_keys"]],
                               origin: .network)
        let config = await answer("aria2.addUri", [["https://example.com/c"], ["dir": .string(directory + "/x/.config")]],
                                  origin: .network)
        let batch = await answer("ferry.add", [[["uris": ["https://example.com/b"], "options": ["dir": .string(directory + "/.local")]]]],
                                 origin: .network)

        // Then each is an error naming the rule, nothing is queued and no directory is made.
        for reply in [ssh, config, batch] {
            let message = reply?["error"]?.objectValue?["message"]?.stringValue
            #expect(message?.contains("part starting with '.'") == true, "\(String(describing: reply))")
        }
        #expect(try journal.tasks(in: nil, limit: 10).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory + "/.ssh"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/x"))

        // And a plain dir, or `.` and `..` parts as before, are taken over TCP, a dot directory
        // still from the owner's control socket.
        #expect(await answer("aria2.addUri", [["https://example.com/p"], ["dir": .string(directory + "/./a/../plain")]],
                             origin: .network)?["result"] != nil)
        #expect(await answer("aria2.addUri", [["https://example.com/l"], ["dir": .string(directory + "/.cache")]],
                             origin: .local)?["result"] != nil)
        #expect(try journal.tasks(in: nil, limit: 10).count == 2)
    }
}
