import Foundation
import Testing
@testable import FerryKit

/// Reading Metalink/HTTP (RFC 6249) from a response's headers: pure logic.
@Suite struct MetalinkHTTPTests {
    static let base = URL(string: "http://origin.example/pub/f.iso")!
    static let sha256 = Data(repeating: 0xAB, count: 32).base64EncodedString()
    static let sha512 = Data(repeating: 0xCD, count: 64).base64EncodedString()

    func read(_ fields: [(String, String)], status: Int = 200) -> MetalinkHTTP {
        MetalinkHTTP(response: HTTPResponse(url: Self.base, statusCode: status, headers: HTTPHeaders(fields.map { HTTPHeaders.Field(name: $0.0, value: $0.1) })))
    }

    @Test func duplicatesAreOrderedByPreferenceThenPriorityAndResolved() {
        let found = read([
            ("Link", "<http://a.example/f.iso>; rel=duplicate; pri=2, <http://b.example/f.iso>; rel=\"duplicate\"; pri=1; geo=de"),
            ("Link", "</mirror/f.iso>; rel=duplicate; pri=3; pref, <http://c.example/f.meta4>; rel=describedby; type=\"application/metalink4+xml\""),
            ("Link", "<ftp://d.example/f.iso>; rel=duplicate, <http://origin.example/pub/f.iso>; rel=duplicate, <http://a.example/f.iso>; rel=duplicate"),
        ])
        #expect(found.mirrors.map(\.absoluteString) == ["http://origin.example/mirror/f.iso", "http://b.example/f.iso", "http://a.example/f.iso"])
        #expect(found.checksum == nil)
    }

    @Test func theStrongestDigestIsTakenFromEveryKind() throws {
        #expect(read([("Digest", "MD5=\(Data(repeating: 1, count: 16).base64EncodedString()), SHA-256=\(Self.sha256)")]).checksum
                == (try ExpectedChecksum(algorithm: .sha256, hex: String(repeating: "ab", count: 32))))
        #expect(read([("Repr-Digest", "sha-256=:\(Self.sha256):, sha-512=:\(Self.sha512):")]).checksum?.algorithm == .sha512)
        #expect(read([("Digest", "SHA=\(Data(repeating: 2, count: 20).base64EncodedString())")]).checksum?.algorithm == .sha1)
        // Content-Digest is the representation's only on a whole reply without a coding.
        #expect(read([("Content-Digest", "sha-256=:\(Self.sha256):")]).checksum?.algorithm == .sha256)
        #expect(read([("Content-Digest", "sha-256=:\(Self.sha256):")], status: 206).checksum == nil)
        #expect(read([("Content-Digest", "sha-256=:\(Self.sha256):"), ("Content-Encoding", "gzip")]).checksum == nil)
    }

    @Test func malformedHeadersNameNothing() {
        let found = read([
            ("Link", "http://a.example/f.iso; rel=duplicate, <>; rel=duplicate, <http://b.example/x>; rel=next, <http://[bad; rel=duplicate"),
            ("Digest", "SHA-256=not base64!, SHA-256=\(Data(repeating: 1, count: 5).base64EncodedString()), UNIXsum=30637"),
            ("Repr-Digest", "sha-256=\(Self.sha256), sha-256=:, =, =:x:"),
            ("Link", "<http://c.example/f.iso>; =; ==; rel, <http://d.example/f.iso>; \"; rel=\"duplicate, <"),
            ("Digest", "=, ==, SHA-256"),
        ])
        #expect(found.isEmpty, "\(found)")
    }

    @Test func atMostThirtyTwoMirrorsAreTaken() {
        let links = (0..<100).map { "<http://m\($0).example/f.iso>; rel=duplicate" }.joined(separator: ", ")
        #expect(read([("Link", links)]).mirrors.count == MetalinkHTTP.maximumMirrors)
    }
}
