import FerryKit
import FerryTestSupport
import Foundation
import Testing

/// `ferry get URL` from a server that names its mirrors and digest (Metalink/HTTP, RFC 6249):
/// nginx on 127.0.0.1 adding `Link: <...>; rel=duplicate` and `Digest: SHA-256=...` to its
/// replies, a second nginx serving the same file as the mirror.
@Suite(.serialized) struct MetalinkHTTPGetTests {
    static let size = 8 << 20

    struct Fixture {
        let work: TemporaryDirectory
        let www: TemporaryDirectory
        let mirror: NginxServer
        let origin: NginxServer
        var saved: URL { work.file("out/f.bin") }
        var digest: String { Pattern.sha256Hex(count: MetalinkHTTPGetTests.size, seed: 61) }

        /// `digestOf` is the seed of the bytes the origin's `Digest` header is the hash of.
        init(digestOf seed: Int = 61) throws {
            work = try TemporaryDirectory()
            www = try TemporaryDirectory(worldReadable: true)
            try Pattern.writeFile(at: www.file("f.bin"), count: MetalinkHTTPGetTests.size, seed: 61)
            mirror = try NginxServer.start(root: www.url, limitRate: "2m")
            let base64 = SHA256Hex.base64(hex: Pattern.sha256Hex(count: MetalinkHTTPGetTests.size, seed: seed))
            origin = try NginxServer.start(root: www.url, limitRate: "2m", extraConfig: """
                add_header Link "<\(mirror.url("/f.bin").absoluteString)>; rel=duplicate; pri=1" always;
                add_header Digest "SHA-256=\(base64)" always;
                """)
        }

        func get(_ arguments: [String]) throws -> ProcessResult {
            try runFerry(["get", "-d", work.file("out").path] + arguments + [origin.url("/f.bin").absoluteString],
                         stateDirectory: work.file("state"), timeout: .seconds(120))
        }

        func stop() {
            origin.stop()
            mirror.stop()
            www.remove()
            work.remove()
        }
    }

    @Test func theMirrorAResponseNamesServesRangesAndItsDigestChecksTheFile() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }

        let result = try fixture.get(["-x", "4", "--min-split-size", "1M"])

        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(try SHA256Hex.of(file: fixture.saved) == fixture.digest)
        #expect(result.stderr.contains("the server names 1 mirror and a sha-256 digest (Metalink/HTTP)"), "\(result.stderr)")
        // The mirror served ranges of the file beside the origin.
        #expect(fixture.mirror.accessLog().contains(" 206 "), "\(fixture.mirror.accessLog())")
        #expect(fixture.origin.accessLog().contains(" 206 "), "\(fixture.origin.accessLog())")
    }

    @Test func aDigestTheFileDoesNotHaveFailsItWithStatus3AndNoMetalinkHTTPLeavesItUnused() throws {
        let fixture = try Fixture(digestOf: 62)
        defer { fixture.stop() }

        // One connection: the file from the origin alone, checked against the digest it named.
        let checked = try fixture.get([])
        #expect(checked.exitStatus == 3, "\(checked.stderr)")
        #expect(checked.stderr.contains("checksum mismatch (sha-256)"), "\(checked.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.saved.path))

        // Without Metalink/HTTP, the headers change nothing: saved, the mirror never asked.
        try? FileManager.default.removeItem(at: fixture.work.file("state"))
        let mirrorAsked = fixture.mirror.accessLog()
        let unused = try fixture.get(["--no-metalink-http", "-x", "4", "--min-split-size", "1M"])
        #expect(unused.exitStatus == 0, "\(unused.stderr)")
        #expect(try SHA256Hex.of(file: fixture.saved) == fixture.digest)
        #expect(fixture.mirror.accessLog() == mirrorAsked)
        #expect(!unused.stderr.contains("Metalink/HTTP"))
    }
}
