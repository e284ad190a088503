import Testing
@testable import FerryQueue

@Suite struct MaskingTests {
    @Test func secretHeadersAreMasked() throws {
        for line in ["Authorization: Basic dXNlcjpwYXNz", "cookie: a=b", "Proxy-Authorization: x y",
                     "X-Auth-Token: t0k", "X-API-Key: k3y"] {
            let header = try HeaderField(parsing: line)
            #expect(header.isSecret, "\(line)")
            #expect("\(header)" == "\(header.name): ***")
            #expect(!header.masked.contains(header.value))
        }
        #expect(try HeaderField(parsing: "Accept:  text/html ").masked == "Accept: text/html")
    }

    @Test func headersWithControlCharactersAreRejected() {
        #expect(throws: QueueError.self) { try HeaderField(parsing: "X-A: b\rInjected: 1") }
        #expect(throws: QueueError.self) { try HeaderField(parsing: "Bad Name: v") }
        #expect(throws: QueueError.self) { try HeaderField(parsing: "no colon") }
    }

    @Test func urlUserInfoIsMasked() throws {
        let url = try TransferURL(validating: "https://alice:hunter2@example.com:8443/p?q=1")
        #expect(url.masked == "https://***@example.com:8443/p?q=1")
        #expect("\(url)" == url.masked)
        #expect(url.string.contains("hunter2"))
        #expect(TransferURL.mask("http://example.com/a@b") == "http://example.com/a@b")
    }

    @Test func urlValidation() throws {
        for good in ["http://example.com", "HTTPS://example.com/a%20b", "http://127.0.0.1:8080/x", "http://[::1]/"] {
            #expect(throws: Never.self) { try TransferURL(validating: good) }
        }
        for bad in ["ftp://example.com/f", "https:///nohost", "example.com/f", "http://exa mple.com/",
                    "http://example.com/a\r\nb", "http://example.com/\u{7}", "http://example.com:0/", ""] {
            #expect(throws: QueueError.self, "\(bad)") { try TransferURL(validating: bad) }
        }
    }

    @Test func invalidURLErrorsAreMaskedToo() {
        let error = #expect(throws: QueueError.self) { try TransferURL(validating: "ftp://bob:pw@example.com/") }
        #expect(error?.description.contains("pw") == false)
    }

    @Test func checksumsAndRates() throws {
        #expect(try Checksum(parsing: "sha-1=" + String(repeating: "a", count: 40)).algorithm == .sha1)
        #expect(try Checksum(parsing: "MD5=" + String(repeating: "F", count: 32)).hex == String(repeating: "f", count: 32))
        #expect(throws: QueueError.self) { try Checksum(parsing: "sha-256=abc") }
        #expect(throws: QueueError.self) { try Checksum(parsing: "crc32=00000000") }
        #expect(try TaskOptions.parseRate("1M") == 1_048_576)
        #expect(try TaskOptions.parseRate("500K") == 512_000)
        #expect(try TaskOptions.parseRate("2048") == 2048)
        #expect(try TaskOptions.parseRate("0") == nil)
        #expect(try TaskOptions.parseRate("1.5M") == 1_572_864)
        #expect(try TaskOptions.parseRate(" 2g ") == 2 << 30)
        for bad in ["1.5.M", "1.", ".5K", "-1K", "1e6", "1T", "inf", "9223372036854775807K", ""] {
            #expect(throws: QueueError.self, "\(bad)") { try TaskOptions.parseRate(bad) }
        }
        #expect(throws: QueueError.self) { try TaskOptions.parseRate("M") }
    }
}
