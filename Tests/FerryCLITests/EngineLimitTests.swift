import FerryTestSupport
import Foundation
import Testing

/// `--max-per-host` holds on every command that runs transfers: nginx refuses a second
/// connection from this machine (`limit_conn 1`, 503), so any overlap shows. The files are
/// large enough (2 MB at 1 MB/s) that nginx still serves a request while the next would start
/// (a small one is all in the socket buffers at once, and its request is over for nginx).
@Suite(.serialized) struct EngineLimitTests {
    private func oneConnectionServer() throws -> (NginxServer, TemporaryDirectory) {
        let www = try TemporaryDirectory(worldReadable: true)
        for index in 0..<3 {
            try Pattern.writeFile(at: www.file("f\(index).bin"), count: 2_000_000, seed: index)
        }
        let nginx = try NginxServer.start(root: www.url, limitRate: "1m",
                                          extraConfig: "limit_conn one 1; limit_conn_status 503;",
                                          httpConfig: "limit_conn_zone $binary_remote_addr zone=one:1m;")
        return (nginx, www)
    }

    private func expectAllSaved(in out: TemporaryDirectory, _ nginx: NginxServer) throws {
        for index in 0..<3 {
            #expect(try Data(contentsOf: out.file("f\(index).bin")) == Pattern.bytes(count: 2_000_000, seed: index))
        }
        #expect(!nginx.accessLog().contains(" 503 "), "\(nginx.accessLog())")
    }

    @Test func getKeepsToOneConnectionPerHost() throws {
        let (nginx, www) = try oneConnectionServer()
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { nginx.stop(); www.remove(); out.remove(); state.remove() }
        let urls = (0..<3).map { nginx.url("/f\($0).bin").absoluteString }

        let result = try runFerry(["get", "--retries", "0", "--max-concurrent", "3", "--max-per-host", "1", "-d", out.path] + urls,
                                  stateDirectory: state.url)

        #expect(result.exitStatus == 0, "\(result.stderr)")
        try expectAllSaved(in: out, nginx)
    }

    @Test func resumeKeepsToOneConnectionPerHost() throws {
        let (nginx, www) = try oneConnectionServer()
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { nginx.stop(); www.remove(); out.remove(); state.remove() }
        let urls = (0..<3).map { nginx.url("/f\($0).bin").absoluteString }
        #expect(try runFerry(["add", "--retries", "0", "-d", out.path] + urls, stateDirectory: state.url).exitStatus == 0)

        let result = try runFerry(["resume", "--max-concurrent", "3", "--max-per-host", "1"], stateDirectory: state.url)

        #expect(result.exitStatus == 0, "\(result.stderr)")
        try expectAllSaved(in: out, nginx)
    }

    @Test func theLimitsAreExplainedAndChecked() throws {
        for command in ["get", "resume", "tui"] {
            let help = try runFerry([command, "--help"])
            // The default is said once (ArgumentParser adds it), whatever the line breaks.
            let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(text.contains("--max-per-host <N> Transfers running at once to one server (host and port), so a queue of one site's files stays polite. (default: 4)"), "\(command): \(help.stdout)")
            #expect(text.contains("--max-concurrent <N> Transfers running at once, in all. (default: 5)"), "\(command): \(help.stdout)")
        }
        let bad = try runFerry(["get", "--max-per-host", "0", "http://127.0.0.1:9/x"])
        #expect(bad.exitStatus == 2)
        #expect(bad.stderr.contains("--max-per-host"))
    }
}
