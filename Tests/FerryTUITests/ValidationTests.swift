import Testing
@testable import FerryTUI

@Suite struct ValidationTests {
    @Test(arguments: [
        "http://example.com", "https://example.com/a?b=c#d", "HTTPS://Example.com:8443/x",
        "http://user:secret@host/p", "http://[::1]:8080/", "http://127.0.0.1",
    ])
    func acceptsHttpAndHttpsUrls(_ url: String) {
        #expect(URLValidator.problem(in: url) == nil)
    }

    @Test(arguments: [
        ("", "Enter a URL"),
        ("ftp://example.com/a", "Only http:// and https:// URLs are supported"),
        ("file:///etc/passwd", "Only http:// and https:// URLs are supported"),
        ("example.com/a", "The URL must start with http:// or https://"),
        ("http:///path", "The URL has no host"),
        ("https://user@/x", "The URL has no host"),
        ("http://exa mple.com", "The URL must not contain spaces, tabs or line breaks"),
        ("http://example.com/a\r\nHost: evil", "The URL must not contain spaces, tabs or line breaks"),
        ("http://example.com/\n", "The URL must not contain spaces, tabs or line breaks"),
        ("http://example.com:99999/", "The URL's port must be a number from 1 to 65535"),
        ("http://example.com:8x/", "The URL's port must be a number from 1 to 65535"),
    ])
    func rejectsBadUrlsWithAReason(_ url: String, _ reason: String) {
        #expect(URLValidator.problem(in: url) == reason)
    }

    @Test func checksumIsNormalisedOrExplained() {
        let hex = String(repeating: "A", count: 64)
        #expect(ChecksumValidator.normalize("SHA256=\(hex)") == .success("sha256=" + hex.lowercased()))
        #expect(ChecksumValidator.normalize("sha256=abc") == .failure(FieldProblem("sha256 needs 64 hex digits")))
        #expect(ChecksumValidator.normalize("crc32=abcd").isFailure)
        #expect(ChecksumValidator.normalize("abcd").isFailure)
    }
}

extension Result {
    var isFailure: Bool { if case .failure = self { true } else { false } }
}
