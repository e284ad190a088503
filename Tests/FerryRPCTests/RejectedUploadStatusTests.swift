import FerryQueue
import Foundation
import Testing
@testable import FerryRPC

/// `aria2.tellStatus` of a queued upload the server rejected: the server's explanation in
/// `errorMessage`, and what was sent as its bytes.
struct RejectedUploadStatusTests {
    @Test func aRejectedUploadSaysWhyAndWhatWasSent() async throws {
        // Given an upload recorded failed after 4096 bytes, with the start of the server's reply
        let fixture = try EngineFixture()
        defer { fixture.close() }
        let spec = TaskSpec(urls: [try TransferURL(validating: "http://127.0.0.1:9/in")], upload: UploadSpec(bodyFile: "/in/body.bin"))
        let id = try fixture.journal.insert(NewTask(spec: spec))
        _ = try fixture.journal.markRunning([id])
        let message = "server answered 413 Request Entity Too Large: at most 1 MiB"
        _ = try fixture.journal.recordOutcomes([AttemptOutcome(id: id, state: .failed, message: message, length: 4096)])

        // When a client asks for its status
        let request: JSONValue = ["jsonrpc": "2.0", "id": "1", "method": "aria2.tellStatus",
                                  "params": [.string(GID.string(for: id)), ["status", "errorMessage", "completedLength", "totalLength"]]]
        let answer = await fixture.dispatcher().answer(request.serialized(), origin: .local)
        let status = try #require(JSONValue.parse(answer.body)?.objectValue?["result"]?.objectValue)

        // Then it is an error with the server's explanation, and its bytes are those sent
        #expect(status["status"] == "error")
        #expect(status["errorMessage"]?.stringValue == message)
        #expect(status["completedLength"] == "4096" && status["totalLength"] == "4096")
    }
}

/// `ferry.addUpload`: one upload queued as `ferry.add` takes it, answered with its GID.
struct AddUploadTests {
    @Test func anUploadIsQueuedResumableAndABadOneIsRefused() async throws {
        let fixture = try EngineFixture()
        defer { fixture.close() }
        let body = URL(fileURLWithPath: fixture.directory).appendingPathComponent("body.bin")
        try Data(repeating: 7, count: 4096).write(to: body)
        let upload: JSONValue = ["method": "PUT", "body-file": .string(body.path), "resumable": "tus"]
        let request: JSONValue = ["jsonrpc": "2.0", "id": "1", "method": "ferry.addUpload",
                                  "params": [["http://127.0.0.1:9/in"], upload]]
        let answer = await fixture.dispatcher().answer(request.serialized(), origin: .local)
        let gid = try #require(JSONValue.parse(answer.body)?.objectValue?["result"]?.stringValue, "\(String(decoding: answer.body, as: UTF8.self))")

        let id = try #require(GID.taskID(gid))
        let record = try #require(try fixture.journal.task(id))
        #expect(record.kind == .upload)
        #expect(record.spec.upload?.bodyFile == body.path && record.spec.upload?.resumable == "tus")

        // An upload that is not an object names the parameter.
        let bad: JSONValue = ["jsonrpc": "2.0", "id": "2", "method": "ferry.addUpload", "params": [["http://127.0.0.1:9/in"], "body.bin"]]
        let refused = await fixture.dispatcher().answer(bad.serialized(), origin: .local)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("parameter 2 must be the upload"))
    }
}
