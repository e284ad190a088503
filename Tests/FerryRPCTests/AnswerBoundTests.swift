import FerryQueue
import Foundation
import Testing
@testable import FerryRPC

/// No authenticated request can make the daemon build an unbounded answer: a page of more
/// than `AnswerBudget.maximumRows` tasks and a batch whose answers pass
/// `AnswerBudget.maximumBytes` are answered with a JSON-RPC error saying the bound; and a
/// batch of token guesses is one guess.
struct AnswerBoundTests {
    @Test func aPagePastTheRowBoundIsRefusedAndSmallPagesStillWork() async throws {
        // Given 10,050 queued tasks.
        let fixture = try Fixture(tasks: AnswerBudget.maximumRows + 50)
        defer { fixture.close() }

        // When a front end asks for 100,000 of them, then it gets an error naming the bound
        // (not 100,000 silently cut, nor an answer of every task).
        let big = try await fixture.call("aria2.tellWaiting", [.integer(0), .integer(100_000), ["gid"]])
        #expect(big.error?.code == 1)
        #expect(big.error?.message.contains("more than 10000 per call") == true)
        // A page counted from the end likewise.
        let backwards = try await fixture.call("aria2.tellWaiting", [.integer(-1), .integer(100_000), ["gid"]])
        #expect(backwards.error?.code == 1)

        // Then a page of 1,000 and a large ask on an empty list work as before.
        let page = try await fixture.call("aria2.tellWaiting", [.integer(0), .integer(1_000), ["gid"]])
        #expect(page.result?.arrayValue?.count == 1_000)
        let tail = try await fixture.call("aria2.tellWaiting", [.integer(10_000), .integer(100_000), ["gid"]])
        #expect(tail.result?.arrayValue?.count == 50)
        let stopped = try await fixture.call("aria2.tellStopped", [.integer(0), .integer(100_000), ["gid"]])
        #expect(stopped.result?.arrayValue?.count == 0)
    }

    @Test func aBatchWhoseAnswersPassTheByteBoundEndsInErrorsNotAGiantAnswer() async throws {
        // Given 2,000 queued tasks and a budget of 4 MiB an answer (64 MiB in the daemon).
        let budget = 4 << 20
        let fixture = try Fixture(tasks: 2_000, answerBytes: budget)
        defer { fixture.close() }

        // When one batch asks for the full page 150 times.
        let request: JSONValue = .array((0..<150).map { index in
            ["jsonrpc": "2.0", "id": .integer(Int64(index)), "method": "aria2.tellWaiting",
             "params": [.integer(0), .integer(2_000)]]
        })
        let answer = await fixture.dispatcher.answer(request.serialized(), origin: .local)

        // Then the answer stays within the bound, the first pages are whole and the rest say
        // the bound.
        #expect(answer.body.count <= budget + 64 << 10)
        let replies = try #require(JSONValue.parse(answer.body)?.arrayValue)
        #expect(replies.count == 150)
        #expect(replies.first?.objectValue?["result"]?.arrayValue?.count == 2_000)
        let last = try #require(replies.last?.objectValue?["error"]?.objectValue)
        #expect(last["code"]?.integerValue == 1)
        #expect(last["message"]?.stringValue?.contains("larger than \(budget) bytes") == true)
    }

    @Test func aBatchOfTokenGuessesChecksOnlyTheFirst() async throws {
        // Given a daemon with a secret.
        let fixture = try Fixture(tasks: 1, secret: "a-long-enough-secret")
        defer { fixture.close() }

        // When a TCP batch carries a wrong token and then the right one.
        func version(_ token: String, id: Int64) -> JSONValue {
            ["jsonrpc": "2.0", "id": .integer(id), "method": "aria2.getVersion", "params": [.string("token:" + token)]]
        }
        let guesses = await fixture.dispatcher.answer(
            JSONValue.array([version("guess", id: 1), version("a-long-enough-secret", id: 2)]).serialized(), origin: .network)

        // Then both are refused: a batch is one guess per delay, not one per call.
        #expect(guesses.unauthorized)
        let replies = try #require(JSONValue.parse(guesses.body)?.arrayValue)
        #expect(replies.map { $0.objectValue?["error"]?.objectValue?["message"] } == ["Unauthorized", "Unauthorized"])

        // And the right token alone is answered at once.
        let right = await fixture.dispatcher.answer(version("a-long-enough-secret", id: 3).serialized(), origin: .network)
        #expect(!right.unauthorized)
        #expect(JSONValue.parse(right.body)?.objectValue?["result"] != nil)
    }

    /// `Fixture` is an engine over a journal of `tasks` queued downloads, nothing running them.
    private struct Fixture {
        let engine: EngineFixture
        let dispatcher: RPCDispatcher
        var journal: Journal { engine.journal }

        init(tasks: Int, secret: String? = nil, answerBytes: Int = AnswerBudget.maximumBytes) throws {
            engine = try EngineFixture(tasks: tasks)
            dispatcher = engine.dispatcher(secret: secret, answerBytes: answerBytes)
        }

        func call(_ method: String, _ params: [JSONValue]) async throws -> (result: JSONValue?, error: RPCError?) {
            let request: JSONValue = ["jsonrpc": "2.0", "id": "1", "method": .string(method), "params": .array(params)]
            let answer = await dispatcher.answer(request.serialized(), origin: .local)
            let members = try #require(JSONValue.parse(answer.body)?.objectValue)
            let error = members["error"]?.objectValue.map {
                RPCError(code: $0["code"]?.integerValue ?? 0, message: $0["message"]?.stringValue ?? "")
            }
            return (members["result"], error)
        }

        func close() {
            engine.close()
        }
    }
}
