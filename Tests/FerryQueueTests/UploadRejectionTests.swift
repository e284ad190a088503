import FerryKit
@testable import FerryQueue
import Foundation
import Testing

/// A queued upload the server rejects: its message keeps the start of the server's reply, on
/// one line, escaped and bounded, and its length is what was sent.
struct UploadRejectionTests {
    private let id = TaskID(rawValue: 3)
    private let retryPolicy = RetryPolicy(retryLimit: 2, baseDelay: 1, maximumDelay: 60, jitter: 0)

    private func decide(status: Int, body: String?, sent: Int64, policy: inout AttemptPolicy) throws -> Decision {
        let spec = TaskSpec(urls: [try TransferURL(validating: "http://127.0.0.1/in")], upload: UploadSpec(bodyFile: "/in/body.bin"))
        let url = try #require(URL(string: "http://127.0.0.1/in"))
        let data = body.map { Data($0.utf8) }
        let result = TransferResult(response: HTTPResponse(url: url, statusCode: status, reasonPhrase: nil),
                                    data: data, bytesReceived: Int64(data?.count ?? 0), bytesSent: sent)
        return policy.decide(id, spec: spec, outcome: .success(result), intent: nil, madeProgress: false, response: nil)
    }

    @Test func aRejectedUploadKeepsTheStartOfTheReplyAndWhatWasSent() throws {
        // Given an upload of which 4096 bytes were sent when the server answered 413 with a page.
        var policy = AttemptPolicy(retryPolicy: retryPolicy)

        // When the attempt is decided.
        let decision = try decide(status: 413, body: "<html>\r\n<body>Quota\texceeded:\r\n  at most 1 MiB</body></html>\r\n",
                                  sent: 4096, policy: &policy)

        // Then the task fails with the status and the body as one line, and its length is what was sent.
        #expect(decision.state == .failed)
        #expect(decision.message?.hasSuffix(": <html> <body>Quota exceeded: at most 1 MiB</body></html>") == true,
                "\(decision.message ?? "nil")")
        #expect(decision.message?.hasPrefix("server answered 413") == true)
        #expect(decision.length == 4096)
    }

    @Test func aRetriedRejectionCarriesTheReplyToo() throws {
        // Given a server answering 503 with an explanation (a status that is retried).
        var policy = AttemptPolicy(retryPolicy: retryPolicy)

        // When the first attempt is decided.
        let decision = try decide(status: 503, body: "maintenance until 06:00", sent: 10, policy: &policy)

        // Then it waits for a retry with the reply in its message.
        #expect(decision.state == .queued)
        #expect(decision.message?.hasSuffix(": maintenance until 06:00") == true, "\(decision.message ?? "nil")")
    }

    @Test func controlCharactersAreEscapedAndTheExcerptIsBounded() {
        // Given a reply with an escape sequence, a bidi override and far more than the limit.
        let text = "red\u{1B}[31m text \u{202E}evil " + String(repeating: "x", count: 500)

        // When it is made into an excerpt.
        let line = UploadReply.excerpt(text)

        // Then nothing of it can move the cursor, and it ends in an ellipsis at the limit.
        #expect(line.hasPrefix(#"red\u{1b}[31m text \u{202e}evil x"#), "\(line)")
        #expect(!line.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format })
        #expect(line.hasSuffix("…"))
        #expect(line.count == UploadReply.excerptLimit + 1)
    }

    @Test func anEmptyOrBinaryReplyGivesTheStatusAlone() throws {
        var policy = AttemptPolicy(retryPolicy: retryPolicy)

        let empty = try decide(status: 403, body: nil, sent: 0, policy: &policy)
        let blank = try decide(status: 403, body: " \r\n", sent: 0, policy: &policy)

        #expect(empty.message == "server answered 403 Forbidden")
        #expect(blank.message == "server answered 403 Forbidden")
        #expect(empty.length == 0)
    }
}
