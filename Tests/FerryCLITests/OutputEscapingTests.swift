import FerryTestSupport
import Foundation
import Testing

/// Server text printed to a terminal is escaped (catalogue 40): a reason phrase that writes
/// the clipboard (OSC 52) and clears the screen reaches stderr as `\u{1b}` escapes, from
/// `ferry get` and `ferry put`; a reply body written to stdout stays raw bytes.
@Suite(.serialized) struct OutputEscapingTests {
    /// ESC ] 52 ; c ; base64 BEL (clipboard write), then ESC [ 2 J (clear screen).
    static let hostile = "\u{1B}]52;c;SGVsbG8=\u{07}owned\u{1B}[2J"

    /// `hasRawControl(_:)` is true when `data` holds ESC, BEL or another C0 control but
    /// newline and tab.
    private func hasRawControl(_ data: Data) -> Bool {
        data.contains { $0 < 0x20 && $0 != 0x0A && $0 != 0x09 }
    }

    @Test func putEscapesTheReasonPhrase() throws {
        let server = try FaultServer.start()
        defer { server.stop() }

        let result = try runFerry(["put", "--form", "a=1", server.url("/reply/5", query: ["reason": Self.hostile]).absoluteString])

        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(!hasRawControl(result.standardError), "\(result.stderr)")
        #expect(result.stderr.contains("\\u{1b}]52;c;SGVsbG8=\\u{7}owned\\u{1b}[2J"))
    }

    @Test func getEscapesTheReasonPhraseOfAFailure() throws {
        let server = try FaultServer.start()
        defer { server.stop() }
        let out = try TemporaryDirectory()
        defer { out.remove() }

        let result = try runFerry(["get", "--retries", "0", "-d", out.path, server.url("/reply/5", query: ["code": "404", "reason": Self.hostile]).absoluteString])

        #expect(result.exitStatus == 1)
        #expect(!hasRawControl(result.standardError), "\(result.stderr)")
        #expect(result.stderr.contains("404 \\u{1b}]52"))
    }

    @Test func theServersMessageIsEscapedButTheReplyBodyStaysRaw() throws {
        let server = try FaultServer.start()
        defer { server.stop() }

        // A rejected upload: the server's message goes to stderr, escaped.
        let rejected = try runFerry(["put", "--form", "a=1", server.url("/reply/0", query: ["code": "422", "reason": Self.hostile, "ctype": "text/plain", "body": "name \(Self.hostile) taken"]).absoluteString])
        #expect(rejected.exitStatus == 1)
        #expect(!hasRawControl(rejected.standardError), "\(rejected.stderr)")
        #expect(rejected.stderr.contains("taken"))

        // An accepted one: its body is the output, byte for byte.
        let accepted = try runFerry(["put", "--form", "a=1", server.url("/reply/0", query: ["ctype": "text/plain", "body": Self.hostile]).absoluteString])
        #expect(accepted.exitStatus == 0, "\(accepted.stderr)")
        #expect(accepted.standardOutput == Data(Self.hostile.utf8))
        #expect(!hasRawControl(accepted.standardError), "\(accepted.stderr)")
    }
}
