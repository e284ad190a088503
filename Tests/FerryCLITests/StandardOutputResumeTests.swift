import FerryTestSupport
import Foundation
import Testing

/// `ferry get URL -o -` after a dropped connection: from the next byte when the server can
/// prove it is the same file, never a spliced stream (as wget's `-O -` goes on).
@Suite struct StandardOutputResumeTests {
    @Test func aDropGoesOnFromTheNextByteWithTheValidator() throws {
        // Given a 300,000-byte file whose first transfer drops after 100,000 bytes.
        let server = try FaultServer.start()
        defer { server.stop() }
        let url = server.url("/bytes/300000", query: ["seed": "7", "drop_after": "100000", "drop_times": "1", "key": "stdout-drop"])

        // When it is fetched to standard output.
        let result = try runFerry(["get", "-o", "-", url.absoluteString])

        // Then standard output holds exactly the file, from two requests: the second for the
        // rest, with If-Range.
        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(result.standardOutput == Pattern.bytes(count: 300_000, seed: 7))
        let requests = try server.requests(prefix: "/bytes/")
        try #require(requests.count == 2, "\(requests.map(\.headers))")
        let second = requests[1].headers
        #expect(second.contains { $0.name.lowercased() == "range" && $0.value.hasPrefix("bytes=") && $0.value != "bytes=0-" }, "\(second)")
        #expect(second.contains { $0.name.lowercased() == "if-range" }, "\(second)")
        #expect(result.stderr.contains("trying again"), "\(result.stderr)")
    }

    @Test func aServerThatAnswersTheWholeFileAgainEndsTheRunWithThePrefixKept() throws {
        // Given a file whose first transfer drops, on a server that answers ranges with a 200.
        let server = try FaultServer.start()
        defer { server.stop() }
        let url = server.url("/bytes/300000", query: ["seed": "8", "drop_after": "100000", "drop_times": "1", "key": "stdout-200",
                                                      "range_200": "1"])

        // When it is fetched to standard output.
        let result = try runFerry(["get", "-o", "-", url.absoluteString])

        // Then the run fails, saying standard output holds the first bytes only, and those
        // bytes are the file's start: nothing was spliced after them.
        #expect(result.exitStatus != 0)
        #expect(result.stderr.contains("standard output holds the first"), "\(result.stderr)")
        let written = result.standardOutput
        #expect(written.count <= 100_000 && written == Pattern.bytes(count: written.count, seed: 8))
    }

    @Test func withoutAValidatorADropAfterTheFirstBytesIsNotTriedAgain() throws {
        // Given a file without ETag or Last-Modified whose transfer drops after 100,000 bytes.
        let server = try FaultServer.start()
        defer { server.stop() }
        let url = server.url("/bytes/300000", query: ["seed": "9", "drop_after": "100000", "etag": "none", "lastmod": "none"])

        // When it is fetched to standard output.
        let result = try runFerry(["get", "-o", "-", url.absoluteString])

        // Then one request was made, the run failed, and the bytes written are the file's start.
        #expect(result.exitStatus == 1, "\(result.stderr)")
        #expect(try server.requests(prefix: "/bytes/").count == 1)
        let written = result.standardOutput
        #expect(written == Pattern.bytes(count: written.count, seed: 9))
    }
}
