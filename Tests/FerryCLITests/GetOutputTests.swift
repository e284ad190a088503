import FerryTestSupport
import Foundation
import Testing

/// `ferry get -o PATH`, `-o -` and `-i FILE` as a user runs them: the real binary, a real nginx.
@Suite(.serialized) struct GetOutputTests {
    @Test func outputToStandardOutputIsByteExactAndLeavesNothingBehind() throws {
        // Given a file on nginx and an empty working directory.
        let www = try TemporaryDirectory(worldReadable: true)
        let work = try TemporaryDirectory()
        let state = try TemporaryDirectory(prefix: "ferry-state")
        defer { www.remove(); work.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("body.bin"), count: 1_500_000, seed: 21)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }

        // When it is fetched with -o - through a pipe.
        let result = try runFerry(["get", nginx.url("/body.bin").absoluteString, "-o", "-"], stateDirectory: state.url,
                                  currentDirectory: work.url)

        // Then stdout holds exactly the body, status 0, and no file, .part or queue row was made.
        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(result.standardOutput == (try Data(contentsOf: www.file("body.bin"))))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty)
        let list = try runFerry(["list", "--json"], stateDirectory: state.url)
        #expect(!list.stdout.contains("body.bin"), "\(list.stdout)")
    }

    @Test func outputToStandardOutputWritesNoErrorPage() throws {
        // Given nginx without the file.
        let www = try TemporaryDirectory(worldReadable: true)
        defer { www.remove() }
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }

        // When it is asked for with -o -.
        let result = try runFerry(["get", "--retries", "0", nginx.url("/missing.bin").absoluteString, "-o", "-"])

        // Then the status is 1, stdout is empty and stderr says why.
        #expect(result.exitStatus == 1, "\(result.stderr)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.stderr.contains("404"), "\(result.stderr)")
    }

    @Test func outputToStandardOutputRefusesWhatNeedsAFile() throws {
        // Given options that need a file, or stdout for themselves.
        let cases: [[String]] = [["--json"], ["--checksum", "sha-256=" + String(repeating: "0", count: 64)], ["-x", "4"]]
        for extra in cases {
            // When one goes with -o -.
            let result = try runFerry(["get", "http://127.0.0.1:9/x", "-o", "-"] + extra)

            // Then it is a usage error, before anything is sent or written.
            #expect(result.exitStatus == 2, "\(extra): \(result.stderr)")
            #expect(result.stderr.contains("-o - writes the body to stdout"), "\(extra): \(result.stderr)")
            #expect(result.standardOutput.isEmpty)
        }
    }

    @Test func outputTakesRelativeAndAbsolutePathsCreatingParents() throws {
        // Given a file on nginx and a working directory.
        let www = try TemporaryDirectory(worldReadable: true)
        let work = try TemporaryDirectory()
        defer { www.remove(); work.remove() }
        try Pattern.writeFile(at: www.file("p.bin"), count: 200_000, seed: 22)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let url = nginx.url("/p.bin").absoluteString
        let expected = try SHA256Hex.of(file: www.file("p.bin"))

        // When it is saved at a relative path, an absolute one, and a relative one under -d.
        let relative = try runFerry(["get", url, "-o", "sub/dir/name.bin"], currentDirectory: work.url)
        let absolute = try runFerry(["get", url, "-o", work.file("abs/deep/a.bin").path])
        let underDir = try runFerry(["get", url, "-d", work.file("base").path, "-o", "in/b.bin"])

        // Then each is where it was asked for, missing directories made, byte-exact.
        #expect(relative.exitStatus == 0, "\(relative.stderr)")
        #expect(absolute.exitStatus == 0, "\(absolute.stderr)")
        #expect(underDir.exitStatus == 0, "\(underDir.stderr)")
        #expect(try SHA256Hex.of(file: work.file("sub/dir/name.bin")) == expected)
        #expect(try SHA256Hex.of(file: work.file("abs/deep/a.bin")) == expected)
        #expect(try SHA256Hex.of(file: work.file("base/in/b.bin")) == expected)

        // And an existing file at the path is not replaced without --overwrite.
        let again = try runFerry(["get", url, "-o", "sub/dir/name.bin"], currentDirectory: work.url)
        #expect(again.exitStatus == 0, "\(again.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.file("sub/dir/name.1.bin").path))

        // And a path that does not end in a plain name is a usage error.
        let bad = try runFerry(["get", url, "-o", "sub/.hidden"], currentDirectory: work.url)
        #expect(bad.exitStatus == 2, "\(bad.stderr)")
    }

    @Test func outputPathDoesNotFollowAPlantedPartSymlink() throws {
        // Given a .part planted as a symlink to a victim file at the -o path.
        let www = try TemporaryDirectory(worldReadable: true)
        let work = try TemporaryDirectory()
        defer { www.remove(); work.remove() }
        try Pattern.writeFile(at: www.file("s.bin"), count: 50_000, seed: 23)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        try FileManager.default.createDirectory(at: work.file("d"), withIntermediateDirectories: true)
        try Data("victim".utf8).write(to: work.file("victim.txt"))
        try FileManager.default.createSymbolicLink(atPath: work.file("d/s.bin.part").path, withDestinationPath: work.file("victim.txt").path)

        // When the file is saved at that path.
        _ = try runFerry(["get", nginx.url("/s.bin").absoluteString, "-o", "d/s.bin"], currentDirectory: work.url)

        // Then the victim is untouched.
        #expect(try String(contentsOf: work.file("victim.txt"), encoding: .utf8) == "victim")
    }

    @Test func inputFileDownloadsEveryEntryWithItsOwnName() throws {
        // Given three files on nginx and a list naming one of them with out= in a subdirectory.
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        for (index, name) in ["a.bin", "b.bin", "c.bin"].enumerated() {
            try Pattern.writeFile(at: www.file(name), count: 100_000 + index * 1000, seed: 30 + index)
        }
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let list = """
            \(nginx.url("/a.bin").absoluteString)
            \(nginx.url("/b.bin").absoluteString)
              out=renamed/bee.bin
            \(nginx.url("/c.bin").absoluteString)
              out=sea.bin

            """
        try Data(list.utf8).write(to: out.file("list.txt"))

        // When the list is downloaded now.
        let result = try runFerry(["get", "-i", out.file("list.txt").path, "-d", out.file("got").path])

        // Then every entry is saved under its name, byte-exact, status 0.
        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(try SHA256Hex.of(file: out.file("got/a.bin")) == SHA256Hex.of(file: www.file("a.bin")))
        #expect(try SHA256Hex.of(file: out.file("got/renamed/bee.bin")) == SHA256Hex.of(file: www.file("b.bin")))
        #expect(try SHA256Hex.of(file: out.file("got/sea.bin")) == SHA256Hex.of(file: www.file("c.bin")))
        #expect(result.stderr.contains("saved"), "\(result.stderr)")
    }

    @Test func inputFileSkipsABadEntryAndExitsTwo() throws {
        // Given a list with one good entry and one with a bad checksum option.
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        try Pattern.writeFile(at: www.file("ok.bin"), count: 10_000, seed: 40)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        try Self.writeListWithABadLine(to: out.file("list.txt"), nginx: nginx)

        // When the list is downloaded.
        let result = try runFerry(["get", "-i", out.file("list.txt").path, "-d", out.path])

        // Then the good entry is saved, the bad line is named, and the status is 2.
        #expect(result.exitStatus == 2, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.file("ok.bin").path))
        #expect(result.stderr.contains("line 3"), "\(result.stderr)")
    }

    @Test func aSkippedLineOfAListIsAUsageErrorThroughADaemonToo() throws {
        // Given a list with a good entry and a line that cannot be used, and a daemon running the queue.
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("ok.bin"), count: 10_000, seed: 41)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        try Self.writeListWithABadLine(to: out.file("list.txt"), nginx: nginx)
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }

        // When the list is downloaded through it, and again once its file is saved.
        let first = try runFerry(["get", "-i", out.file("list.txt").path, "-d", out.path], stateDirectory: state.url)
        let again = try runFerry(["get", "-i", out.file("list.txt").path, "-d", out.path], stateDirectory: state.url)

        // Then the good entry is saved, and both runs name the bad line and exit 2.
        #expect(first.exitStatus == 2, "\(first.stderr)")
        #expect(try Data(contentsOf: out.file("ok.bin")) == Pattern.bytes(count: 10_000, seed: 41))
        #expect(first.stderr.contains("line 3"), "\(first.stderr)")
        #expect(again.exitStatus == 2, "\(again.stderr)")
        #expect(again.stderr.contains("line 3") && again.stderr.contains("already saved"), "\(again.stderr)")
    }

    /// `writeListWithABadLine(to:nginx:)` writes a list of `ok.bin`, then an entry whose
    /// checksum option (line 3) cannot be used.
    private static func writeListWithABadLine(to file: URL, nginx: NginxServer) throws {
        let list = """
            \(nginx.url("/ok.bin").absoluteString)
            \(nginx.url("/bad.bin").absoluteString)
              checksum=sha-256=0000

            """
        try Data(list.utf8).write(to: file)
    }
}
