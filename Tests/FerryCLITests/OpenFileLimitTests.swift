import FerryTestSupport
import Foundation
import Testing

/// Many transfers at once under a low soft limit of open files, as on a desktop whose
/// default is 1,024 and a `--max-concurrent` in the hundreds: scaled down with `prlimit`.
@Suite(.serialized) struct OpenFileLimitTests {
    @Test func manyTransfersAtOnceUnderALowSoftLimitAllSucceed() throws {
        // Given 120 small files and a soft limit of 48 open files (the hard limit unchanged):
        // 30 sockets plus the files finishing at once need more than 48
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        for index in 0..<120 {
            try Pattern.writeFile(at: www.file("f\(index).bin"), count: 16_384, seed: index)
        }
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let urls = (0..<120).map { nginx.url("/f\($0).bin").absoluteString }

        // When `ferry get` runs 30 at once
        let result = try run(
            executable: "/usr/bin/prlimit",
            arguments: ["--nofile=48:", "--", try ferryExecutableURL().path, "get", "--max-concurrent", "30",
                        "-d", out.path] + urls,
            environment: ProcessInfo.processInfo.environment.merging(["FERRY_STATE_DIR": state.path]) { $1 },
            timeout: .seconds(120))

        // Then Ferry raised its own soft limit: every file arrives byte-exact, status 0
        #expect(result.exitStatus == 0, "\(result.stderr.suffix(2_000))")
        #expect(!result.stderr.contains("Too many open files"))
        for index in 0..<120 {
            #expect(try SHA256Hex.of(file: out.file("f\(index).bin")) == Pattern.sha256Hex(count: 16_384, seed: index))
        }
    }
}
