import FerryTestSupport
import Foundation
import Testing

/// Running the same `ferry get` again does the right thing: finished files are skipped,
/// unfinished ones resume, and a failed download keeps no name for itself.
@Suite(.serialized) struct GetRerunTests {
    private func spawnFerry(_ arguments: [String], state: URL) throws -> ChildProcess {
        let environment = ProcessInfo.processInfo.environment.merging(["FERRY_STATE_DIR": state.path]) { $1 }
        return try ChildProcess.spawn(executable: try ferryExecutableURL().path, arguments: arguments, environment: environment)
    }

    private func names(in directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test func theSameCommandAfterCtrlCResumesAndSkipsWithoutACopy() throws {
        // Given a small file, a large rate-limited one and a missing one.
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        try FileManager.default.createDirectory(at: www.file("slow"), withIntermediateDirectories: true)
        try Pattern.writeFile(at: www.file("small.bin"), count: 20_000, seed: 1)
        try Pattern.writeFile(at: www.file("slow/large.bin"), count: 3 << 20, seed: 2)
        let nginx = try NginxServer.start(root: www.url, extraConfig: "location /slow/ { limit_rate 1m; sendfile_max_chunk 64k; }")
        defer { nginx.stop() }
        let arguments = ["get", "--retries", "0", "-d", out.path, nginx.url("/small.bin").absoluteString,
                         nginx.url("/slow/large.bin").absoluteString, nginx.url("/missing.bin").absoluteString]

        // When the command is interrupted once the small file is saved and the large one started.
        let first = try spawnFerry(arguments, state: state.url)
        let progressed = first.waitForOutput(timeout: .seconds(30)) { _ in
            (try? Data(contentsOf: out.file("large.bin.part")).count).map { $0 > 256 << 10 } ?? false
                && FileManager.default.fileExists(atPath: out.file("small.bin").path)
        }
        #expect(progressed)
        first.signal(SIGINT)
        let interrupted = try #require(first.wait(timeout: .seconds(30)))
        #expect(interrupted.exitStatus == 130, "\(interrupted.stderr)")
        #expect(interrupted.stderr.contains("partial files were kept: run the same command again to resume"), "\(interrupted.stderr)")

        // And the same command runs again.
        let second = try runFerry(arguments, stateDirectory: state.url, timeout: .seconds(60))

        // Then the small file is not fetched again, the large one resumes, the missing one fails,
        // and no copy (NAME.1) exists.
        #expect(second.exitStatus == 1, "\(second.stderr)")
        #expect(second.stderr.contains("already saved \(out.file("small.bin").path)"), "\(second.stderr)")
        #expect(try Data(contentsOf: out.file("small.bin")) == Pattern.bytes(count: 20_000, seed: 1))
        #expect(try SHA256Hex.of(file: out.file("large.bin")) == Pattern.sha256Hex(count: 3 << 20, seed: 2))
        #expect(try names(in: out) == ["large.bin", "small.bin"])
        let log = nginx.accessLog()
        #expect(log.components(separatedBy: "/small.bin").count - 1 == 1, "\(log)")
        #expect(log.contains(" 206 "), "the large file resumed with a range")
    }

    @Test func ctrlCBeforeAnyByteSaysWhatIsLeftWithoutPartialFiles() throws {
        // Given a download whose server sends its headers, then nothing.
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { out.remove(); state.remove() }
        let server = try FaultServer.start()
        defer { server.stop() }
        let url = server.url("/bytes/100000", query: ["stall_after": "0", "stall_for": "60"])

        // When `ferry get` is interrupted while it waits for the first byte.
        let first = try spawnFerry(["get", "--retries", "0", "-d", out.path, url.absoluteString], state: state.url)
        let asked = (0..<100).contains { _ in
            if ((try? server.requests(prefix: "/bytes/")) ?? []).isEmpty {
                Thread.sleep(forTimeInterval: 0.1)
                return false
            }
            return true
        }
        #expect(asked)
        Thread.sleep(forTimeInterval: 0.3)
        first.signal(SIGINT)
        let interrupted = try #require(first.wait(timeout: .seconds(30)))

        // Then it says the same command downloads the rest, and claims no partial file.
        #expect(interrupted.exitStatus == 130, "\(interrupted.stderr)")
        #expect(interrupted.stderr.contains("interrupted; run the same command again to download the rest"), "\(interrupted.stderr)")
        #expect(!interrupted.stderr.contains("partial files"), "\(interrupted.stderr)")
    }

    @Test func aFailedDownloadReservesNoName() throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        try FileManager.default.createDirectory(at: www.file("b"), withIntermediateDirectories: true)
        try Pattern.writeFile(at: www.file("b/hello.txt"), count: 1_000, seed: 5)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }

        // Given a download of hello.txt that failed.
        let failed = try runFerry(["get", "--retries", "0", "-d", out.path, nginx.url("/a/hello.txt").absoluteString], stateDirectory: state.url)
        #expect(failed.exitStatus == 1)

        // When another URL's hello.txt is downloaded into the same directory.
        let saved = try runFerry(["get", "-d", out.path, nginx.url("/b/hello.txt").absoluteString], stateDirectory: state.url)

        // Then it takes the name hello.txt.
        #expect(saved.exitStatus == 0, "\(saved.stderr)")
        #expect(try names(in: out) == ["hello.txt"])
        #expect(try Data(contentsOf: out.file("hello.txt")) == Pattern.bytes(count: 1_000, seed: 5))
    }

    @Test func overwriteFetchesAFreshCopyOfASavedFile() throws {
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("f.bin"), count: 5_000, seed: 1)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let url = nginx.url("/f.bin").absoluteString

        #expect(try runFerry(["get", "-d", out.path, url], stateDirectory: state.url).exitStatus == 0)
        try Pattern.writeFile(at: www.file("f.bin"), count: 6_000, seed: 2)
        let skipped = try runFerry(["get", "-d", out.path, url], stateDirectory: state.url)
        let fresh = try runFerry(["get", "--overwrite", "-d", out.path, url], stateDirectory: state.url)

        #expect(skipped.exitStatus == 0 && skipped.stderr.contains("already saved"), "\(skipped.stderr)")
        #expect(fresh.exitStatus == 0, "\(fresh.stderr)")
        #expect(try Data(contentsOf: out.file("f.bin")) == Pattern.bytes(count: 6_000, seed: 2))
        #expect(try names(in: out) == ["f.bin"])
    }
}
