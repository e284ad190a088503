import FerryTestSupport
import Foundation
import Glibc
import Testing

/// `GetHandoffTests` run two `ferry get` of one queue at once, as two terminals do: the
/// second hands its downloads to the first's engine (which adopts them) and ends as a run of
/// its own would, with its file byte-exact; a Ctrl-C of the first pauses its own downloads and
/// lets the second's finish.
@Suite(.serialized) struct GetHandoffTests {
    /// `Fixture` is nginx serving a slow file and a second file, and a state directory.
    struct Fixture {
        let www: TemporaryDirectory
        let state: TemporaryDirectory
        let nginx: NginxServer
        var stateDirectory: String { state.file("state").path }

        init(firstSize: Int = 4 << 20, secondSize: Int, secondSlow: Bool) throws {
            www = try TemporaryDirectory(worldReadable: true)
            state = try TemporaryDirectory()
            try FileManager.default.createDirectory(at: www.file("slow"), withIntermediateDirectories: true)
            try Pattern.writeFile(at: www.file("slow/a.bin"), count: firstSize, seed: 11)
            try Pattern.writeFile(at: www.file(secondSlow ? "slow/b.bin" : "b.bin"), count: secondSize, seed: 12)
            nginx = try NginxServer.start(root: www.url, extraConfig: "location /slow/ { limit_rate 256k; sendfile_max_chunk 64k; }")
        }

        func stop() {
            nginx.stop()
            www.remove()
            state.remove()
        }

        /// `get(_:into:)` starts `ferry get --json` (progress events on stdout) of `path`.
        func get(_ path: String, into directory: String) throws -> ChildProcess {
            try ChildProcess.spawn(executable: try ferryExecutableURL().path,
                                   arguments: ["get", "--json", "-d", state.file(directory).path, nginx.url(path).absoluteString,
                                               "--state-dir", stateDirectory])
        }

        /// `list()` is `ferry list`'s output.
        func list() throws -> String {
            try run(executable: try ferryExecutableURL().path, arguments: ["list", "--state-dir", stateDirectory],
                    timeout: .seconds(30)).stdout
        }
    }

    /// `transferring(_:)` waits until `get` reports progress (its download runs).
    static func transferring(_ get: ChildProcess) -> Bool {
        get.waitForOutput(timeout: .seconds(60)) { String(decoding: $0, as: UTF8.self).contains("\"event\":\"progress\"") }
    }

    @Test func aSecondGetOfTheQueueHandsItsDownloadToTheFirstAndEndsAsARunOfItsOwn() throws {
        // Given a `ferry get` of a slow download running on its own
        let fixture = try Fixture(secondSize: 512 << 10, secondSlow: false)
        defer { fixture.stop() }
        let first = try fixture.get("/slow/a.bin", into: "one")
        defer { first.kill() }
        #expect(Self.transferring(first))

        // When a second `ferry get` of another file is run for the same queue
        let second = try fixture.get("/b.bin", into: "two")
        defer { second.kill() }
        let result = second.wait(timeout: .seconds(60))

        // Then it ends with status 0 and its file byte-exact, as a run of its own; the first
        // goes on, and a Ctrl-C ends it with 130 and its .part kept.
        #expect(result?.exitStatus == 0, "\(result?.stderr ?? "timed out")")
        let saved = fixture.state.file("two/b.bin")
        #expect(try SHA256Hex.of(file: saved) == SHA256Hex.of(file: fixture.www.file("b.bin")))
        #expect(result.map { !$0.stderr.contains("another ferry") } == true)
        first.signal(SIGINT)
        #expect(first.wait(timeout: .seconds(30))?.exitStatus == 130)
        #expect(directoryListing(fixture.state.file("one")).contains("a.bin.part"))
    }

    @Test func aCtrlCOfTheFirstPausesItsOwnAndLetsTheSecondsFinish() throws {
        // Given two `ferry get` of one queue, the second's slow download adopted by the first's engine
        let fixture = try Fixture(secondSize: 1 << 20, secondSlow: true)
        defer { fixture.stop() }
        let first = try fixture.get("/slow/a.bin", into: "one")
        defer { first.kill() }
        #expect(Self.transferring(first))
        let second = try fixture.get("/slow/b.bin", into: "two")
        defer { second.kill() }
        #expect(Self.transferring(second))
        let both = try fixture.list()
        #expect(both.components(separatedBy: "\trunning\t").count - 1 == 2, "\(both)")

        // When the first is interrupted (Ctrl-C)
        first.signal(SIGINT)

        // Then the first says that the second's download goes on, the second ends with status 0
        // and its file byte-exact, and only then the first ends, with 130 and its own .part kept.
        let result = second.wait(timeout: .seconds(90))
        #expect(result?.exitStatus == 0, "\(result?.stderr ?? "timed out")")
        #expect(try SHA256Hex.of(file: fixture.state.file("two/b.bin")) == SHA256Hex.of(file: fixture.www.file("slow/b.bin")))
        let ended = first.wait(timeout: .seconds(30))
        #expect(ended?.exitStatus == 130)
        let said = ended?.stderr ?? ""
        #expect(said.contains("the downloads another ferry get gave this one go on until they end"), "\(said)")
        #expect(directoryListing(fixture.state.file("one")).contains("a.bin.part"))
    }

    @Test func aFirstGetWhoseOwnDownloadEndedSaysItGoesOnWithTheSecondsAndEndsWithThem() throws {
        // Given a `ferry get` of a short slow download, and a second get of a longer one adopted by its engine
        let fixture = try Fixture(firstSize: 3 << 19, secondSize: 3 << 20, secondSlow: true)
        defer { fixture.stop() }
        let first = try fixture.get("/slow/a.bin", into: "one")
        defer { first.kill() }
        #expect(Self.transferring(first))
        let second = try fixture.get("/slow/b.bin", into: "two")
        defer { second.kill() }
        #expect(Self.transferring(second))

        // When the first's own download ends, then the second's
        let result = second.wait(timeout: .seconds(90))
        let ended = first.wait(timeout: .seconds(30))

        // Then the first said that it goes on with the second's download, and both end with 0
        // and their files byte-exact.
        #expect(result?.exitStatus == 0, "\(result?.stderr ?? "timed out")")
        #expect(ended?.exitStatus == 0, "\(ended?.stderr ?? "timed out")")
        let said = ended?.stderr ?? ""
        #expect(said.contains("done here; 1 download another ferry get gave this one still run"), "\(said)")
        #expect(try SHA256Hex.of(file: fixture.state.file("one/a.bin")) == SHA256Hex.of(file: fixture.www.file("slow/a.bin")))
        #expect(try SHA256Hex.of(file: fixture.state.file("two/b.bin")) == SHA256Hex.of(file: fixture.www.file("slow/b.bin")))
    }
}
