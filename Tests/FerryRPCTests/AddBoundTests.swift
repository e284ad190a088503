import FerryQueue
import Foundation
import Testing
@testable import FerryRPC

/// `aria2.addUri` refuses a URL or header past its bound with a JSON-RPC error and queues nothing.
struct AddBoundTests {
    /// `withDispatcher(_:)` runs `body` with a dispatcher over a fresh, empty journal.
    private func withDispatcher(_ body: (RPCDispatcher, Journal) async throws -> Void) async throws {
        let fixture = try EngineFixture()
        defer { fixture.close() }
        try await body(fixture.dispatcher(), fixture.journal)
    }

    /// `addUri(_:_:)` is the `error` object of the answer to `aria2.addUri` with `params`, if any.
    private func addUriError(_ dispatcher: RPCDispatcher, _ params: [JSONValue]) async -> [String: JSONValue]? {
        let request: JSONValue = ["jsonrpc": "2.0", "id": "1", "method": "aria2.addUri", "params": .array(params)]
        let answer = await dispatcher.answer(request.serialized(), origin: .local)
        return JSONValue.parse(answer.body)?.objectValue?["error"]?.objectValue
    }

    @Test func aURLOf900KBIsAnErrorAndNothingIsQueued() async throws {
        try await withDispatcher { dispatcher, journal in
            // Given a URL of 900 KB.
            let url = "https://example.com/" + String(repeating: "a", count: 900 * 1024)

            // When it is added.
            let error = try #require(await addUriError(dispatcher, [[.string(url)], [:]]))

            // Then the answer is an error naming the bound, short, and the queue stays empty.
            let message = try #require(error["message"]?.stringValue)
            #expect(message.contains("longer than 65536 bytes"))
            #expect(message.utf8.count < 1000)
            #expect(try journal.tasks(in: nil, limit: 10).isEmpty)
        }
    }

    @Test func aLongHeaderOrTooManyHeadersIsAnErrorAndNothingIsQueued() async throws {
        try await withDispatcher { dispatcher, journal in
            // Given a header of 20 KiB, and 101 headers of a few bytes.
            let long: JSONValue = ["header": .string("X-Long: " + String(repeating: "b", count: 20 * 1024))]
            let many: JSONValue = ["header": .array((0...HeaderField.maximumCount).map { .string("X-N\($0): v") })]

            // When each is added.
            let longError = try #require(await addUriError(dispatcher, [["https://example.com/a"], long]))
            let manyError = try #require(await addUriError(dispatcher, [["https://example.com/b"], many]))

            // Then both are errors naming the bound, and the queue stays empty.
            #expect(longError["message"]?.stringValue?.contains("longer than 16384 bytes") == true)
            #expect(manyError["message"]?.stringValue?.contains("at most 100") == true)
            #expect(try journal.tasks(in: nil, limit: 10).isEmpty)
        }
    }
}
