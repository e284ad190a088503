import FerryTestSupport
import Foundation
import Testing

/// Exit statuses and messages that must be the same everywhere: usage and input errors are 2,
/// local file errors 4; one check of a file name for every source; one line per retry.
@Suite(.serialized) struct ExitStatusTests {
    @Test func controlCharactersInHeadersAreUsageErrors() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Data("x".utf8).write(to: dir.file("body.txt"))
        let commands: [[String]] = [
            ["get", "-d", dir.path],
            ["put", "-T", dir.file("body.txt").path],
            ["add", "-d", dir.path],
        ]
        for command in commands {
            for value in ["a\u{1B}[2Jb", "a\rInjected: 1", "a\nInjected: 1"] {
                let result = try runFerry(command + ["-H", "X-Test: \(value)", "http://127.0.0.1:9/file"], timeout: .seconds(30))
                #expect(result.exitStatus == 2, "\(command[0]) with \(value.debugDescription): \(result.stderr)")
                #expect(!result.standardError.contains(0x1B))
            }
        }
    }

    @Test func aStateDirectoryThatCannotBeWrittenIsALocalFileError() throws {
        // Given a state directory whose engine lock cannot be opened (what a read-only one gives).
        let state = try TemporaryDirectory(prefix: "ferry-state")
        let out = try TemporaryDirectory()
        defer { state.remove(); out.remove() }
        try FileManager.default.createDirectory(at: state.file("engine.lock"), withIntermediateDirectories: true)

        let result = try runFerry(["get", "--retries", "0", "-d", out.path, "http://127.0.0.1:9/file"], stateDirectory: state.url, timeout: .seconds(30))

        #expect(result.exitStatus == 4, "\(result.stderr)")
        #expect(result.stderr.contains("engine.lock"))
    }

    @Test func everySourceOfANameGetsTheSameCheck() throws {
        // Given a name with an escape sequence, on the command line and in a batch file.
        let state = try TemporaryDirectory(prefix: "ferry-state")
        let out = try TemporaryDirectory()
        defer { state.remove(); out.remove() }
        let badName = "re\u{1B}[2Jport.pdf"
        let batch = "http://127.0.0.1:9/a\n  out=\(badName)\nhttp://127.0.0.1:9/b\n  out=fine.pdf\n"
        try Data(batch.utf8).write(to: out.file("batch.txt"))

        let get = try runFerry(["get", "-d", out.path, "-o", badName, "http://127.0.0.1:9/a"], stateDirectory: state.url, timeout: .seconds(30))
        let add = try runFerry(["add", "-d", out.path, "-o", badName, "http://127.0.0.1:9/a"], stateDirectory: state.url)
        let fromBatch = try runFerry(["add", "-d", out.path, "-i", out.file("batch.txt").path], stateDirectory: state.url)
        let listed = try runFerry(["list", "--json"], stateDirectory: state.url)

        // Then each refuses it (status 2), and only the good batch entry is queued.
        #expect(get.exitStatus == 2, "\(get.stderr)")
        #expect(add.exitStatus == 2, "\(add.stderr)")
        #expect(fromBatch.exitStatus == 2, "\(fromBatch.stderr)")
        #expect(fromBatch.stderr.contains("line 2"))
        #expect(listed.stdout.split(separator: "\n").count == 1)
        #expect(listed.stdout.contains(#""name":"fine.pdf""#))
        for result in [get, add, fromBatch] { #expect(!result.standardError.contains(0x1B)) }
    }

    @Test func eachRetryIsReportedOnce() throws {
        let server = try FaultServer.start()
        defer { server.stop() }
        let out = try TemporaryDirectory()
        defer { out.remove() }

        let result = try runFerry(["get", "--retries", "2", "-d", out.path, server.url("/status/503").absoluteString])

        // Two retries and the final failure: three lines, each said once.
        #expect(result.exitStatus == 1)
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("ferry:") && $0.contains("503") }
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(lines.filter { $0.contains("retrying in") }.count == 2)
    }
}
