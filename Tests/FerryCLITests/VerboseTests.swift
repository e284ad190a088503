import FerryTestSupport
import Foundation
import Testing

/// `ferry get -v` shows the heads it sent and received on stderr, as curl -v does, and never a
/// secret: not the header given with -H, not the token of the query, not the URL's password.
@Suite struct VerboseTests {
    @Test func theHeadsAreShownWithTheirSecretsMasked() throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("a.bin"), count: 10_000, seed: 3)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        var components = try #require(URLComponents(url: nginx.url("/a.bin"), resolvingAgainstBaseURL: false))
        components.user = "me"
        components.password = "pa55word"
        components.query = "token=t0ken-value&x=1"
        let url = try #require(components.url).absoluteString

        let result = try runFerry(["get", "-v", "-d", out.path, "-H", "X-Api-Key: key-value-9", url], stateDirectory: state.url)

        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(result.stderr.contains("> GET /a.bin?token=***&x=1 HTTP/1.1\n"), "\(result.stderr)")
        #expect(result.stderr.contains("> X-Api-Key: ***\n"), "\(result.stderr)")
        #expect(result.stderr.contains("> Authorization: ***\n"), "the URL's login is sent as Basic, masked: \(result.stderr)")
        #expect(result.stderr.contains("< HTTP/1.1 200 OK\n"), "\(result.stderr)")
        #expect(result.stderr.contains("< Content-Length: 10000\n"), "\(result.stderr)")
        for secret in ["pa55word", "t0ken-value", "key-value-9", "bWU6cGE1NXdvcmQ"] {
            #expect(!result.stderr.contains(secret), "\(secret) was printed: \(result.stderr)")
        }
        #expect(try SHA256Hex.of(file: out.file("a.bin")) == Pattern.sha256Hex(count: 10_000, seed: 3))
    }
}
