import FerryTestSupport
import Foundation
import Testing

/// `ferry get` and `ferry put -T` as a user runs them: the real binary, a real nginx.
@Suite(.serialized) struct GetCommandTests {
    private func ferry(_ arguments: [String], in directory: URL? = nil, timeout: Duration = .seconds(120)) throws -> ProcessResult {
        try runFerry(arguments, currentDirectory: directory, timeout: timeout)
    }

    @Test func downloadsSeveralFilesAndExitsZero() throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        try Pattern.writeFile(at: www.file("a.bin"), count: 300_000, seed: 1)
        try Pattern.writeFile(at: www.file("b%20c.bin"), count: 0)
        try Pattern.writeFile(at: www.file("b c.bin"), count: 5_000, seed: 2)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let target = out.file("new/sub")

        // When downloading into a directory that does not exist yet.
        let result = try ferry(["get", "-d", target.path, nginx.url("/a.bin").absoluteString, nginx.baseURL.absoluteString + "/b%20c.bin"])

        // Then it is created, both files are byte-exact, the name is percent-decoded, status 0.
        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(try SHA256Hex.of(file: target.appendingPathComponent("a.bin")) == SHA256Hex.of(file: www.file("a.bin")))
        #expect(try SHA256Hex.of(file: target.appendingPathComponent("b c.bin")) == SHA256Hex.of(file: www.file("b c.bin")))
        #expect(result.stderr.contains("saved"))
    }

    @Test func neverOverwritesWithoutBeingAsked() throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        try Pattern.writeFile(at: www.file("f.txt"), count: 1000, seed: 4)
        try Data("mine".utf8).write(to: out.file("f.txt"))
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }

        let first = try ferry(["get", "-d", out.path, nginx.url("/f.txt").absoluteString])
        #expect(first.exitStatus == 0)
        #expect(try String(contentsOf: out.file("f.txt"), encoding: .utf8) == "mine")
        #expect(try SHA256Hex.of(file: out.file("f.1.txt")) == SHA256Hex.of(file: www.file("f.txt")))

        let replaced = try ferry(["get", "--overwrite", "-d", out.path, "-o", "f.txt", nginx.url("/f.txt").absoluteString])
        #expect(replaced.exitStatus == 0)
        #expect(try SHA256Hex.of(file: out.file("f.txt")) == SHA256Hex.of(file: www.file("f.txt")))
    }

    @Test func serverAndNetworkFailuresExitOneWithClearMessages() throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let closedPort = try Loopback.freePort()

        let notFound = try ferry(["get", "--retries", "0", "-d", out.path, nginx.url("/nope.bin").absoluteString])
        #expect(notFound.exitStatus == 1)
        #expect(notFound.stderr.contains("server answered 404 Not Found"))

        let refused = try ferry(["get", "--retries", "0", "-d", out.path, "http://127.0.0.1:\(closedPort)/x.bin"])
        #expect(refused.exitStatus == 1)
        #expect(refused.stderr.contains("could not connect to 127.0.0.1:\(closedPort): connection refused"))

        let dns = try ferry(["get", "--retries", "0", "-d", out.path, "http://does-not-exist.invalid/x.bin"])
        #expect(dns.exitStatus == 1)
        #expect(dns.stderr.contains("could not resolve host does-not-exist.invalid"))

        // Nothing half-written keeps a name, final or partial.
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }

    @Test func badInputExitsTwoBeforeAnythingIsSent() throws {
        let out = try TemporaryDirectory()
        defer { out.remove() }
        let cases: [([String], String)] = [
            (["get", "ftp://127.0.0.1/x"], "unsupported URL scheme \"ftp\""),
            (["get", "file:///etc/passwd"], "unsupported URL scheme \"file\""),
            (["get", "http://exa mple/"], "malformed URL"),
            (["get", "not a url"], "malformed URL"),
            (["get", "-H", "no colon", "http://127.0.0.1/"], "invalid header"),
            (["get", "-o", "a", "http://127.0.0.1/1", "http://127.0.0.1/2"], "-o/--output names one file"),
            (["get", "--bogus-flag", "http://127.0.0.1/"], "bogus-flag"),
            (["get"], "nothing to download: give URLs, -i FILE or a Metalink"),
            (["get", "-o", "-", "http://127.0.0.1/1", "http://127.0.0.1/2"], "-o/--output names one file"),
        ]
        for (arguments, message) in cases {
            let result = try ferry(arguments + ["-d", out.path])
            #expect(result.exitStatus == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }

    @Test func anUnusableDirectoryExitsFour() throws {
        let out = try TemporaryDirectory()
        defer { out.remove() }
        try Data("x".utf8).write(to: out.file("plain-file"))
        let result = try ferry(["get", "-d", out.file("plain-file").appendingPathComponent("sub").path, "http://127.0.0.1:9/x"])
        #expect(result.exitStatus == 4, "\(result.stderr)")
        #expect(result.stderr.contains("not a directory") || result.stderr.contains("could not create directory"))
    }

    @Test func quietPrintsOnlyErrors() throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        try Pattern.writeFile(at: www.file("q.bin"), count: 100_000, seed: 8)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }

        let saved = try ferry(["get", "-q", "-d", out.path, nginx.url("/q.bin").absoluteString])
        #expect(saved.exitStatus == 0 && saved.stderr.isEmpty, "\(saved.stderr)")
        #expect(try SHA256Hex.of(file: out.file("q.bin")) == Pattern.sha256Hex(count: 100_000, seed: 8))

        let failed = try ferry(["get", "--quiet", "--retries", "0", "-d", out.path, nginx.url("/missing.bin").absoluteString])
        #expect(failed.exitStatus == 1)
        #expect(failed.stderr.contains("404") && !failed.stderr.contains("downloading"), "\(failed.stderr)")
    }

    @Test func jsonPrintsOneEventPerLine() throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        try Pattern.writeFile(at: www.file("j.bin"), count: 4 << 20)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }

        let result = try ferry(["get", "--json", "-d", out.path, nginx.url("/j.bin").absoluteString])

        #expect(result.exitStatus == 0)
        let events = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(events.count == result.stdout.split(separator: "\n").count)
        #expect(events.first?["event"] as? String == "start")
        #expect(events.last?["event"] as? String == "done")
        #expect(events.last?["bytes"] as? Int == 4 << 20)
        #expect(events.last?["path"] as? String == out.file("j.bin").path)
    }

    @Test func versionAndHelp() throws {
        let version = try ferry(["--version"])
        #expect(version.exitStatus == 0)
        #expect(version.stdout.contains("0.1.0"))
        let help = try ferry(["get", "--help"])
        #expect(help.exitStatus == 0)
        #expect(help.stdout.contains("--output"))
        let root = try ferry(["--help"])
        #expect(root.exitStatus == 0)
        #expect(root.stdout.contains("Exit status"))
    }

    @Test func rawPutSendsTheFileAndPrintsTheReply() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Pattern.writeFile(at: dir.file("body.bin"), count: 3 << 20, seed: 5)
        let server = try FaultServer.start()
        defer { server.stop() }

        let result = try ferry(["put", "-T", dir.file("body.bin").path, server.url("/sink").absoluteString])
        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(result.stdout.contains(Pattern.sha256Hex(count: 3 << 20, seed: 5)))

        let missing = try ferry(["put", "-T", dir.file("absent.bin").path, server.url("/sink").absoluteString])
        #expect(missing.exitStatus == 2)
        #expect(missing.stderr.contains("absent.bin"))

        let rejected = try ferry(["put", "-T", dir.file("body.bin").path, server.url("/reject/413").absoluteString])
        #expect(rejected.exitStatus == 1)
        #expect(rejected.stderr.contains("413"))
    }
}
