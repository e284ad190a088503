import FerryTestSupport
import Foundation
import Testing

/// The reply to an upload: printed as received (like curl), `--pretty` only on request, and
/// held with bounded memory whatever its size (catalogue 39), by `ferry put` and the queue.
@Suite(.serialized) struct UploadReplyTests {
    /// A reply far larger than what Ferry may hold: 256 MiB.
    static let hugeReply = 256 << 20
    /// The most memory a run may reach while it passes the huge reply on (a run's own
    /// footprint is about 30 MiB; holding the reply would take 256 MiB more).
    static let peakLimitKiB = 96 * 1024

    private func environment(state: TemporaryDirectory) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(["FERRY_STATE_DIR": state.path]) { $1 }
    }

    @Test func aHugeReplyToPutIsStreamedWithBoundedMemory() throws {
        // Given a server that answers an upload with 256 MiB.
        let dir = try TemporaryDirectory()
        let state = try TemporaryDirectory(prefix: "ferry-state")
        defer { dir.remove(); state.remove() }
        try Data("a small body".utf8).write(to: dir.file("body.txt"))
        let server = try FaultServer.start()
        defer { server.stop() }

        // When `ferry put` sends to it, stdout going to a file.
        let run = try runMeasured(["put", "-T", dir.file("body.txt").path, server.url("/reply/\(Self.hugeReply)?seed=7").absoluteString],
                                  environment: environment(state: state), stdout: dir.file("reply.bin"))

        // Then the reply arrives whole, byte for byte, and the peak memory stays small.
        #expect(run.exitStatus == 0, "\(run.stderr)")
        #expect(!run.timedOut)
        #expect(try SHA256Hex.of(file: dir.file("reply.bin")) == Pattern.sha256Hex(count: Self.hugeReply, seed: 7))
        #expect(run.peakResidentKiB < Self.peakLimitKiB, "peak RSS \(run.peakResidentKiB) KiB")
    }

    @Test func aHugeReplyToAQueuedUploadKeepsOnlyItsStart() throws {
        // Given a queued upload whose server answers with 256 MiB of text.
        let dir = try TemporaryDirectory()
        let state = try TemporaryDirectory(prefix: "ferry-state")
        defer { dir.remove(); state.remove() }
        try Data("a small body".utf8).write(to: dir.file("body.txt"))
        let server = try FaultServer.start()
        defer { server.stop() }
        let added = try runFerry(["add", "--put", "-T", dir.file("body.txt").path, server.url("/reply/\(Self.hugeReply)").absoluteString], stateDirectory: state.url)
        #expect(added.exitStatus == 0, "\(added.stderr)")

        // When `ferry resume` runs the queue.
        let run = try runMeasured(["resume"], environment: environment(state: state), stdout: dir.file("resume.out"))

        // Then the upload is done and the engine never held the reply.
        #expect(run.exitStatus == 0, "\(run.stderr)")
        #expect(run.peakResidentKiB < Self.peakLimitKiB, "peak RSS \(run.peakResidentKiB) KiB")
        let listed = try runFerry(["list", "--json"], stateDirectory: state.url)
        #expect(listed.stdout.contains(#""state":"done""#), "\(listed.stdout)")
    }

    @Test func theReplyIsPrintedAsReceived() throws {
        // Given a JSON reply a parser would change: duplicate keys, an integer above 64 bits,
        // unsorted keys, no final newline.
        let server = try FaultServer.start()
        defer { server.stop() }
        let body = #"{"b":1,"a":1,"a":2,"n":123456789012345678901234567890}"#

        // When it is the reply to `ferry put`.
        let result = try runFerry(["put", "--form", "x=1", server.url("/reply/0", query: ["ctype": "application/json", "body": body]).absoluteString])

        // Then stdout holds exactly the bytes the server sent.
        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(result.standardOutput == Data(body.utf8))
    }

    @Test func prettyShowsTheReplyForPeople() throws {
        let server = try FaultServer.start()
        defer { server.stop() }
        let url = server.url("/reply/0", query: ["ctype": "application/json", "body": #"{"b":1,"a":[true]}"#]).absoluteString

        let result = try runFerry(["put", "--pretty", "--form", "x=1", url])

        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(result.stdout == "{\n  \"a\" : [\n    true\n  ],\n  \"b\" : 1\n}\n" || result.stdout.hasPrefix("{\n  \"a\""), "\(result.stdout)")
    }

    @Test func jsonEventsCarryABoundedBody() throws {
        // Given a 3 MiB reply, more than the 1 MiB a reply event carries.
        let server = try FaultServer.start()
        defer { server.stop() }
        let url = server.url("/reply/\(3 << 20)").absoluteString

        let result = try runFerry(["put", "--json", "--form", "x=1", url])

        #expect(result.exitStatus == 0, "\(result.stderr)")
        let reply = result.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.first { $0["event"] as? String == "reply" }
        #expect(reply?["bytes"] as? Int == 3 << 20)
        #expect(reply?["body_truncated"] as? Bool == true)
        #expect(result.standardOutput.count < 2 << 20)
    }
}
