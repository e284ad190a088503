import FerryTestSupport
import Foundation
import Testing

/// `--on-complete` and `--on-error` run a command per finished task, with aria2's arguments.
@Suite(.serialized) struct HookTests {
    @Test func getAndResumeRunTheHooksWithTheTaskIdOneAndThePath() throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("h.bin"), count: 20_000, seed: 4)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let log = out.file("hooks.log").path
        // A hook that appends its arguments; another that holds a quoted argument of its own.
        let complete = "printf 'done %s %s %s\\n' >> '\(log)'"
        let error = "printf 'error %s %s %s\\n' >> '\(log)'"

        // When ferry get saves one file and fails another
        let got = try runFerry(["get", "--retries", "0", "-d", out.path, "--on-complete", complete, "--on-error", error,
                                nginx.url("/h.bin").absoluteString, nginx.url("/missing.bin").absoluteString], stateDirectory: state.url)
        #expect(got.exitStatus == 1, "\(got.stderr)")

        // Then each hook ran once, with the task's id, 1 and the path
        var lines: [String] = []
        #expect(waitUntil { lines = Self.lines(log); return lines.count == 2 }, "\(lines)")
        #expect(lines.contains("done 1 1 \(out.file("h.bin").path)"), "\(lines)")
        #expect(lines.contains("error 2 1 \(out.file("missing.bin").path)"), "\(lines)")

        // And ferry resume runs them too
        let added = try runFerry(["add", "-d", out.path, "-o", "again.bin", nginx.url("/h.bin").absoluteString], stateDirectory: state.url)
        #expect(added.exitStatus == 0)
        let resumed = try runFerry(["resume", "--on-complete", complete], stateDirectory: state.url)
        #expect(resumed.exitStatus == 0, "\(resumed.stderr)")
        #expect(waitUntil { Self.lines(log).count == 3 })
        #expect(Self.lines(log).last == "done 3 1 \(out.file("again.bin").path)")
    }

    static func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// `waitUntil(_:)` checks every 50 ms for up to 10 s (a hook runs in the background).
    func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<200 {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }
}
