import FerryTestSupport
import Foundation
import Testing

/// `ferry put` on a terminal: the server's reply is printed whole on stdout and the status line
/// stays on its own line on stderr, driven through a pseudo-terminal (`script`).
@Suite struct PutTerminalReplyTests {
    @Test func theReplyIsNotDrawnOverNorGluedToTheStatusLine() throws {
        // Given a server whose reply has no final newline, and a body to send.
        let dir = try TemporaryDirectory()
        let state = try TemporaryDirectory(prefix: "ferry-state")
        defer { dir.remove(); state.remove() }
        try Data(repeating: 65, count: 100 << 10).write(to: dir.file("body.bin"))
        let server = try FaultServer.start()
        defer { server.stop() }
        let reply = "the end of the reply"
        let url = server.url("/status/200?body=the%20end%20of%20the%20reply").absoluteString

        // When `ferry put` runs with stdout and stderr on a pseudo-terminal.
        let command = [try ferryExecutableURL().path, "put", "-T", dir.file("body.bin").path, url].joined(separator: " ")
        var environment = ProcessInfo.processInfo.environment
        environment["FERRY_STATE_DIR"] = state.url.path
        environment["COLUMNS"] = "100"
        let run = try FerryTestSupport.run(executable: "/usr/bin/script", arguments: ["-qfec", command, "/dev/null"], environment: environment)

        // Then the reply is printed whole, after the status line, and a newline ends it.
        #expect(run.exitStatus == 0, "\(run.stdout) \(run.stderr)")
        let screen = run.stdout
        let end = try #require(screen.range(of: reply, options: .backwards), "\(screen.debugDescription)")
        #expect(screen[end.upperBound...].hasPrefix("\r\n"), "\(screen.debugDescription)")
        #expect(!screen[end.upperBound...].contains("\u{1B}"), "nothing is drawn after the reply: \(screen.debugDescription)")
        let status = try #require(screen.range(of: "200 OK"), "\(screen.debugDescription)")
        #expect(status.upperBound <= end.lowerBound, "\(screen.debugDescription)")
    }
}
