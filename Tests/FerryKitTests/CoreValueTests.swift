import Foundation
import Testing
@testable import FerryKit

@Suite struct RequestValidationTests {
    @Test(arguments: ["http://127.0.0.1:8080/a/b.bin", "https://example.org/", "HTTP://EXAMPLE.ORG/x?y=1"])
    func acceptsHTTPAndHTTPS(_ text: String) throws {
        // Given a well-formed http(s) URL, When validated, Then it parses.
        let url = try Request.validatedURL(text)
        #expect(url.host != nil)
    }

    @Test func rejectsOtherSchemesWithTheirName() {
        for scheme in ["ftp", "file", "gopher"] {
            #expect(throws: FerryError.input(.unsupportedScheme(scheme))) {
                try Request.validatedURL("\(scheme)://host/x")
            }
        }
    }

    @Test(arguments: ["", "example.org/x", "http://", "http://exa mple/", "http://host/a\r\nX: y", "http://host:99999/", "http:///path"])
    func rejectsMalformedURLs(_ text: String) {
        #expect(throws: FerryError.self) { try Request.validatedURL(text) }
    }

    @Test func malformedURLMessageMasksThePassword() {
        do {
            _ = try Request.validatedURL("http://user:hunter2@host/a b")
            Issue.record("expected an error")
        } catch {
            #expect(!error.description.contains("hunter2"))
            #expect(error.description.contains("user:***@host"))
        }
    }
}

@Suite struct URLMaskingTests {
    @Test func masksUserInfoPasswordAndSecretQueryValues() {
        #expect(URLMasking.mask("https://bob:s3cret@host/p?a=1&token=abc&Signature=x#f") == "https://bob:***@host/p?a=1&token=***&Signature=***#f")
        #expect(URLMasking.mask("http://onlyuser@host/") == "http://***@host/")
        #expect(URLMasking.mask("http://host/p?q=1") == "http://host/p?q=1")
    }

    /// URLs with nothing to mask are returned from a look at their bytes; these are the cases
    /// where that look must hand over to the full rule.
    @Test func theShortcutForURLsWithoutSecretsMissesNone() {
        #expect(URLMasking.mask("http://host/p?n=1&TOKEN=abc") == "http://host/p?n=1&TOKEN=***")
        #expect(URLMasking.mask("http://host/p?n=a=b&sig=x") == "http://host/p?n=a=b&sig=***")
        #expect(URLMasking.mask("http://host/p?%74oken=abc") == "http://host/p?%74oken=***")
        #expect(URLMasking.mask("http://host/p#f?token=abc") == "http://host/p#f?token=***")
        // A combining mark after "#" joins it: there is no fragment, the query goes on.
        #expect(URLMasking.mask("http://host/p?n=1#\u{301}&token=abc") == "http://host/p?n=1#\u{301}&token=***")
        #expect(URLMasking.mask("http://host/p?n=1#&token=abc") == "http://host/p?n=1#&token=abc")
        #expect(URLMasking.mask("http://host/p?n=é&tokens=abc") == "http://host/p?n=é&tokens=abc")
        #expect(URLMasking.mask("http://host/a?b") == "http://host/a?b")
    }
}

@Suite struct HTTPHeadersTests {
    @Test func lookupIsCaseInsensitiveAndOrderIsKept() {
        var headers: HTTPHeaders = ["Accept": "a", "X-One": "1"]
        headers.add(name: "x-one", value: "2")
        #expect(headers["X-ONE"] == "1")
        #expect(headers.values(for: "X-One") == ["1", "2"])
        headers["X-One"] = "3"
        #expect(headers.values(for: "x-one") == ["3"])
        #expect(headers.fields.map(\.name) == ["Accept", "X-One"])
    }

    @Test func namesCompareIgnoringTheCaseOfASCIILettersOnly() {
        #expect("Content-Length".caseInsensitiveEquals("content-LENGTH"))
        #expect(!"Content-Length".caseInsensitiveEquals("Content-Lengths"))
        #expect(!"ETag".caseInsensitiveEquals("ETaf"))
        // Only letters fold: "@" (0x40) and "`" (0x60) differ in the same bit as a case.
        #expect(!"X@".caseInsensitiveEquals("X`"))
        #expect(!"A[".caseInsensitiveEquals("a{"))
        // Field names are ASCII tokens: other characters must be the same (the Kelvin sign
        // lowercases to "k", and still names another field).
        #expect("Ärger".caseInsensitiveEquals("Ärger"))
        #expect(!"Ärger".caseInsensitiveEquals("ärger"))
        #expect(!"\u{212A}".caseInsensitiveEquals("k"))
        #expect("".caseInsensitiveEquals(""))
        // Longer than a small string (stored out of line), and bytes that are not letters.
        #expect("Access-Control-Allow-Origin".caseInsensitiveEquals("access-control-allow-ORIGIN"))
        #expect(!"Access-Control-Allow-Origin".caseInsensitiveEquals("Access-Control-Allow-Origim"))
        #expect(!"Access-Control-Allow-Origin".caseInsensitiveEquals("Access_Control-Allow-Origin"))
    }

    @Test func secretsAreMasked() {
        let headers: HTTPHeaders = ["Authorization": "Bearer abc", "Cookie": "a=b", "Accept": "x"]
        #expect(headers.masked.fields.map(\.value) == ["***", "***", "x"])
    }

    @Test func parseLineRejectsLineBreaksAndMissingColon() throws {
        #expect(try HTTPHeaders.parseLine("X-A:  v w ") == .init(name: "X-A", value: "v w"))
        #expect(throws: FerryError.self) { try HTTPHeaders.parseLine("no colon") }
        #expect(throws: FerryError.self) { try HTTPHeaders.parseLine("X-A: a\r\nInjected: 1") }
        #expect(throws: FerryError.self) { try HTTPHeaders.parseLine("Bad Name: v") }
    }
}

@Suite struct ContentLengthTests {
    private func length(_ value: String) -> Int64? {
        HTTPResponse(url: URL(fileURLWithPath: "/"), statusCode: 200, reasonPhrase: "OK",
                     headers: ["Content-Length": value], httpVersion: "HTTP/1.1").expectedContentLength
    }

    @Test func digitsWithBlanksAroundThemAreALength() {
        #expect(length("16384") == 16384)
        #expect(length(" \t0 ") == 0)
        #expect(length("9223372036854775807") == Int64.max)
    }

    @Test func anythingElseIsNoLength() {
        for bad in ["", " ", "-1", "+5", "1 2", "12a", "0x10", "1.5", "9223372036854775808", "١٢"] {
            #expect(length(bad) == nil, "\(bad)")
        }
        let none = HTTPResponse(url: URL(fileURLWithPath: "/"), statusCode: 200, reasonPhrase: "OK", headers: [:], httpVersion: "HTTP/1.1")
        #expect(none.expectedContentLength == nil)
    }
}

@Suite struct SafeFileNameTests {
    @Test func urlPathGivesADecodedBasename() throws {
        #expect(SafeFileName.fromURL(try Request.validatedURL("http://h/dir/r%C3%A9sum%C3%A9.pdf?x=1")) == "résumé.pdf")
        #expect(SafeFileName.fromURL(try Request.validatedURL("http://h/")) == "index.html")
        #expect(SafeFileName.fromURL(try Request.validatedURL("http://h/a/..%2F..%2Fetc%2Fpasswd")) == "_.._etc_passwd")
        #expect(SafeFileName.fromURL(try Request.validatedURL("http://h:8080/q/17;v=1?a=/b#c/d")) == "17;v=1")
        #expect(SafeFileName.fromURL(try Request.validatedURL("http://h/dir/")) == "dir")
        #expect(SafeFileName.fromURL(try Request.validatedURL("http://h/%2Ehidden")) == "hidden")
        // The last non-empty segment, however many slashes follow it or stand between.
        #expect(SafeFileName.fromURL(try Request.validatedURL("http://h/a//long-name-of-a-file.tar.gz//")) == "long-name-of-a-file.tar.gz")
        #expect(SafeFileName.fromURL(try Request.validatedURL("http://h///")) == "index.html")
    }

    /// A plain URL is named on its bytes (`ferry list` of a million tasks); every URL gets the
    /// name `URL` parsing gives, and only plain ones take the shortcut.
    @Test func aURLStringIsNamedAsItsParsedURLIs() throws {
        let plain = ["http://h/dir/file.bin", "https://example.org/a/b.tar.gz?x=1&y=/z#frag", "http://127.0.0.1:8080/q/17;v=1?a=/b#c/d",
                     "http://h/", "http://h", "http://h:80", "http://h?x", "http://h#f", "http://h/dir//", "http://h///",
                     "http://h/a/../b", "http://h/./c.", "http://h/~u/(1)*+,;=!$&'.x", "http://h/a:b@c"]
        let general = ["http://h/r%C3%A9sum%C3%A9.pdf", "http://user:pw@h/x.bin", "http://h:/x", "http://[::1]:8080/v6.bin",
                       "ftp://h/x", "http://h/a b.bin", "http://h/a#b#c", "http://h:99999999/x", "HTTP://H/x", "http://h/é.bin",
                       "http://h:8a/x", "http://h!x/y", "not a url", ""]
        for text in plain {
            let name = try #require(SafeFileName.plainURLName(text), "\(text)")
            #expect(name == SafeFileName.fromURL(try #require(URL(string: text))), "\(text)")
        }
        for text in general {
            #expect(SafeFileName.plainURLName(text) == nil, "\(text)")
            #expect(SafeFileName.fromURL(string: text) == URL(string: text).map(SafeFileName.fromURL), "\(text)")
        }
    }

    /// Plain ASCII names take a shortcut; names next to them take the general path, same rules.
    @Test func plainNamesAreKeptAndTheirNeighboursSanitised() {
        #expect(SafeFileName.sanitize("report 2024 (final).pdf") == "report 2024 (final).pdf")
        #expect(SafeFileName.sanitize(" x ") == "x")
        #expect(SafeFileName.sanitize("a\\b") == "a_b")
        #expect(SafeFileName.sanitize("a\tb") == "ab")
        #expect(SafeFileName.sanitize("x\u{7F}") == "x")
        #expect(SafeFileName.sanitize("") == "index.html")
        let long = String(repeating: "a", count: SafeFileName.maximumBytes + 1) + ".bin"
        #expect(SafeFileName.sanitize(long).utf8.count == SafeFileName.maximumBytes)
    }

    @Test func dangerousNamesAreNeutralised() {
        #expect(SafeFileName.sanitize("../../x") == "_.._x")
        #expect(SafeFileName.sanitize(".bashrc") == "bashrc")
        #expect(SafeFileName.sanitize("..") == "index.html")
        #expect(SafeFileName.sanitize("a\u{0}b\u{1B}[31mc\u{202E}d") == "ab[31mcd")
    }

    @Test func longNamesAreShortenedOnACharacterBoundaryKeepingTheExtension() {
        let long = String(repeating: "名", count: 120) + ".tar.gz"  // 360 bytes of stem
        let short = SafeFileName.sanitize(long)
        #expect(short.utf8.count <= SafeFileName.maximumBytes)
        #expect(short.hasSuffix(".tar.gz"))
        #expect(short.hasPrefix("名"))
    }

    @Test func numberedNamesGoBeforeTheExtension() {
        #expect(SafeFileName.numbered("file.bin", 1) == "file.1.bin")
        #expect(SafeFileName.numbered("archive.tar.gz", 2) == "archive.2.tar.gz")
        #expect(SafeFileName.numbered("README", 3) == "README.3")
    }
}

@Suite struct RetryPolicyTests {
    @Test func transientErrorsRetryAndOtherClientErrorsDoNot() {
        let policy = RetryPolicy(retryLimit: 2)
        let refused = FerryError.transport(.couldNotConnect(host: "h", port: 1, reason: "refused"))
        #expect(policy.shouldRetry(refused, afterAttempt: 1))
        #expect(policy.shouldRetry(refused, afterAttempt: 2))
        #expect(!policy.shouldRetry(refused, afterAttempt: 3))
        for status in [408, 429, 500, 503] {
            #expect(policy.shouldRetry(.validation(.unacceptableStatus(status, reason: "", url: "", body: nil)), afterAttempt: 1))
        }
        for status in [400, 401, 403, 404, 416] {
            #expect(!policy.shouldRetry(.validation(.unacceptableStatus(status, reason: "", url: "", body: nil)), afterAttempt: 1))
        }
        #expect(!policy.shouldRetry(.cancelled, afterAttempt: 1))
    }

    @Test func aRefusedConnectionGivesUpWithinAFewSecondsByDefault() {
        // Given the default policy and a connection nobody accepts, while a 503 is retried the
        // whole budget.
        let policy = RetryPolicy()
        let refused = FerryError.transport(.couldNotConnect(host: "127.0.0.1", port: 9, reason: "connection refused"))
        let unavailable = FerryError.validation(.unacceptableStatus(503, reason: "", url: "", body: nil))

        // When every retry waits its longest (no jitter taken off).
        var waited = 0.0
        var attempt = 1
        while policy.shouldRetry(refused, afterAttempt: attempt) {
            waited += policy.delay(afterAttempt: attempt, random: { 0 })
            attempt += 1
        }

        // Then it gives up after three attempts and 3 s of waiting, within the 5 s asked for.
        #expect(attempt == 3 && waited == 3)
        #expect(waited <= 5)
        #expect(policy.shouldRetry(unavailable, afterAttempt: RetryPolicy.defaultRetryLimit))
        #expect(!RetryPolicy(retryLimit: 1).shouldRetry(refused, afterAttempt: 2))
    }

    @Test func delaysGrowExponentiallyAreCappedAndJittered() {
        let policy = RetryPolicy(baseDelay: 1, maximumDelay: 10, jitter: 0.5)
        #expect(policy.delay(afterAttempt: 1, random: { 0 }) == 1)
        #expect(policy.delay(afterAttempt: 3, random: { 0 }) == 4)
        #expect(policy.delay(afterAttempt: 9, random: { 0 }) == 10)
        #expect(policy.delay(afterAttempt: 3, random: { 1 }) == 2)
        #expect(policy.delay(afterAttempt: 1, retryAfter: 120, random: { 0 }) == 10)
        #expect(policy.delay(afterAttempt: 1, retryAfter: 3, random: { 0 }) == 3)
    }
}

@Suite struct ProgressTrackerTests {
    @Test func snapshotsAreCoalescedAndSpeedIsAMovingAverage() {
        var tracker = ProgressTracker()
        var published: [TransferProgress] = []
        // Given 1 MiB arriving every 10 ms for 2 s.
        for step in 0...200 {
            let now = Double(step) * 0.01
            if let snapshot = tracker.update(received: Int64(step) * 1_048_576, expectedReceived: 200 * 1_048_576, sent: 0, expectedSent: nil, now: now) {
                published.append(snapshot)
            }
        }
        // Then about 10 snapshots a second were published, monotonic, with ~100 MiB/s.
        #expect((19...22).contains(published.count))
        #expect(zip(published, published.dropFirst()).allSatisfy { $0.receivedBytes <= $1.receivedBytes })
        let speed = tracker.current.bytesPerSecond / 1_048_576
        #expect(speed > 95 && speed < 105)
        #expect(tracker.current.fractionCompleted == 1)
        #expect(tracker.current.estimatedSecondsRemaining == 0)
    }

    @Test func unknownTotalsStayUnknown() {
        var tracker = ProgressTracker()
        let snapshot = tracker.update(received: 10, expectedReceived: nil, sent: 0, expectedSent: nil, now: 1, force: true)
        #expect(snapshot?.expectedBytes == nil)
        #expect(snapshot?.fractionCompleted == nil)
        #expect(snapshot?.estimatedSecondsRemaining == nil)
    }
}

@Suite struct TaskStateTests {
    @Test func terminalStatesHaveNoWayOut() {
        for state in TransferTask.State.allCases where state.isTerminal {
            #expect(TransferTask.State.allCases.allSatisfy { !state.canTransition(to: $0) })
        }
        #expect(TransferTask.State.created.canTransition(to: .running))
        #expect(!TransferTask.State.created.canTransition(to: .paused))
        #expect(TransferTask.State.paused.canTransition(to: .running))
    }
}

@Suite struct JSONByteWriterTests {
    @Test func numbersStringsAndKeywordsAreWrittenAsJSON() {
        var writer = JSONByteWriter()
        writer.beginArray()
        for value: Int64 in [0, 7, -7, 1_000_000, .max, .min] { writer.integer(value) }
        writer.integerString(-42)
        writer.null()
        writer.boolean(true)
        writer.boolean(false)
        for text in ["plain/ascii?x=1", "quote\"back\\slash", "tab\tline\n", "\u{1}\u{7F}", "é\u{85}\u{2028}x", ""] { writer.string(text) }
        writer.beginObject()
        writer.key("k")
        writer.integer(1)
        writer.endObject()
        writer.endArray()
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text == #"[0,7,-7,1000000,9223372036854775807,-9223372036854775808,"-42",null,true,false,"plain/ascii?x=1","quote\"back\\slash","tab\tline\n","\u0001\u007f","é\u0085\u2028x","",{"k":1}]"#)
    }
}
