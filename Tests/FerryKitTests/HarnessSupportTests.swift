import Foundation
import FerryTestSupport
import Testing

/// Proves the harness's own pieces: the process runner, the byte pattern and hashing.
@Suite struct HarnessSupportTests {
    // MARK: run(...)

    @Test func runReportsExitStatusAndSignal() throws {
        let exited = try run(executable: "/bin/sh", arguments: ["-c", "exit 3"])
        #expect(exited.termination == .exited(3))
        #expect(!exited.killedBySignal)

        let signaled = try run(executable: "/bin/sh", arguments: ["-c", "kill -TERM $$"])
        #expect(signaled.termination == .signaled(SIGTERM))
    }

    @Test func runCapturesLargeOutputOnBothStreams() throws {
        // More than a pipe buffer on each stream, written one after the other
        let result = try run(
            executable: "/bin/sh",
            arguments: ["-c", "head -c 3000000 /dev/zero; head -c 2000000 /dev/zero >&2; echo done"]
        )
        #expect(result.succeeded)
        #expect(result.standardOutput.count == 3_000_005)
        #expect(result.standardError.count == 2_000_000)
    }

    @Test func runFeedsStandardInput() throws {
        let input = Pattern.bytes(count: 1 << 20, seed: 6)
        let result = try run(executable: "cat", stdin: input)
        #expect(result.standardOutput == input)
    }

    @Test func runPassesEnvironmentAndDirectory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try run(
            executable: "/bin/sh", arguments: ["-c", "echo \"$FERRY_PROBE\"; pwd -P"],
            environment: ["FERRY_PROBE": "yes", "PATH": "/usr/bin:/bin"],
            currentDirectory: directory.url
        )
        let realPath = directory.url.resolvingSymlinksInPath().path
        #expect(result.stdout == "yes\n\(realPath)\n")
    }

    @Test func runKillsOnTimeout() throws {
        let started = ContinuousClock.now
        let result = try run(executable: "/bin/sleep", arguments: ["30"], timeout: .milliseconds(300))
        #expect(result.timedOut)
        #expect(result.termination == .signaled(SIGKILL))
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func runReturnsWhenABackgroundChildHoldsThePipes() throws {
        // The shell exits at once; its background sleep keeps stdout open
        let started = ContinuousClock.now
        let result = try run(executable: "/bin/sh", arguments: ["-c", "echo hi; sleep 30 & exit 0"])
        #expect(result.stdout == "hi\n")
        #expect(result.succeeded)
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func runThrowsForAMissingExecutable() {
        #expect(throws: TestSupportError.self) {
            try run(executable: "ferry-no-such-program-\(UInt32.random(in: 0...UInt32.max))")
        }
    }

    // MARK: Pattern and SHA256Hex

    @Test func patternMatchesTheServerFormula() {
        // The first bytes for seed 1, as served by fault_server.py
        #expect(Array(Pattern.bytes(count: 10, seed: 1)) == [0x3B, 0xBE, 0x41, 0xC4, 0x47, 0xCA, 0x4D, 0xD0, 0x53, 0xD6])
        // Any window equals byte(at:) one by one, across block boundaries
        let offset = 3 * Pattern.blockSize - 5
        let window = Pattern.bytes(count: 4100, seed: 12345, offset: offset)
        #expect(Array(window) == (0..<4100).map { Pattern.byte(at: offset + $0, seed: 12345) })
    }

    @Test func patternDoesNotRepeatAtPowerOfTwoDistances() {
        let start = Pattern.bytes(count: 4096, seed: 0)
        for shift in [256, 2048, 4096, 1 << 16, 1 << 19, 1 << 20, 1 << 30] {
            #expect(Pattern.bytes(count: 4096, seed: 0, offset: shift) != start, "period \(shift)")
        }
        #expect(Pattern.bytes(count: 4096, seed: 1) != start)
    }

    @Test func patternFileAndHashesAgree() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("pattern.bin")
        let size = 3 * (1 << 20) + 5
        try Pattern.writeFile(at: file, count: size, seed: 8)

        let data = try Data(contentsOf: file)
        #expect(data == Pattern.bytes(count: size, seed: 8))
        let fileHash = try SHA256Hex.of(file: file)
        #expect(fileHash == SHA256Hex.of(data: data))
        #expect(fileHash == Pattern.sha256Hex(count: size, seed: 8))
        // sha256("abc"), FIPS 180-2
        #expect(SHA256Hex.of(data: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func ferryExecutableIsNextToTheTests() throws {
        let url = try ferryExecutableURL()
        #expect(url.lastPathComponent == "ferry")
        #expect(FileManager.default.isExecutableFile(atPath: url.path))
    }
}
