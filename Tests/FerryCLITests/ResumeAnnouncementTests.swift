import FerryTestSupport
import Foundation
import Testing

/// `ferry get` says "resuming ... at N" only when the download resumes: the `.part`'s bytes
/// kept and the range answered (206), not when it starts over.
@Suite(.serialized) struct ResumeAnnouncementTests {
    /// `interruptedGet(_:into:state:)` runs `ferry get URL`, interrupts it once more than
    /// 256 KiB are in the `.part`, and returns the `.part`'s path.
    private func interruptedGet(_ url: URL, into out: URL, state: TemporaryDirectory) throws -> URL {
        let part = out.appendingPathComponent(url.lastPathComponent + ".part")
        let get = try ChildProcess.spawn(executable: try ferryExecutableURL().path,
                                         arguments: ["get", "-d", out.path, url.absoluteString, "--state-dir", state.path])
        let started = get.waitForOutput(timeout: .seconds(30)) { _ in
            (try? FileManager.default.attributesOfItem(atPath: part.path)[.size] as? NSNumber).map { $0.intValue > 256 << 10 } ?? false
        }
        #expect(started)
        get.signal(SIGINT)
        let interrupted = try #require(get.wait(timeout: .seconds(30)))
        #expect(interrupted.exitStatus == 130, "\(interrupted.stderr)")
        return part
    }

    @Test func aFreshStartIsNotSaidToResumeAndARealResumeIs() throws {
        // Given a slow file of 3 MiB and a get of it interrupted with part of it on disk
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("slow.bin"), count: 3 << 20, seed: 3)
        let nginx = try NginxServer.start(root: www.url, limitRate: "1m")
        defer { nginx.stop() }
        let out = state.file("out")
        let url = nginx.url("/slow.bin")
        let arguments = ["get", "-d", out.path, url.absoluteString, "--state-dir", state.path]
        let part = try interruptedGet(url, into: out, state: state)

        // When its .part is deleted and the same command runs
        try FileManager.default.removeItem(at: part)
        let fresh = try run(executable: try ferryExecutableURL().path, arguments: arguments, timeout: .seconds(60))

        // Then it downloads from the start without saying it resumes
        #expect(fresh.exitStatus == 0, "\(fresh.stderr)")
        #expect(!fresh.stderr.contains("resuming"), "\(fresh.stderr)")
        #expect(try SHA256Hex.of(file: out.appendingPathComponent("slow.bin")) == Pattern.sha256Hex(count: 3 << 20, seed: 3))

        // When a new get of it is interrupted and run again with its .part in place
        try FileManager.default.removeItem(at: out.appendingPathComponent("slow.bin"))
        _ = try interruptedGet(url, into: out, state: state)
        let resumed = try run(executable: try ferryExecutableURL().path, arguments: arguments, timeout: .seconds(60))

        // Then it says it resumes, and the server answered a range
        #expect(resumed.exitStatus == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resuming \(url.absoluteString) at "), "\(resumed.stderr)")
        #expect(nginx.accessLog().split(separator: "\n").last?.contains(" 206 ") == true, "\(nginx.accessLog())")
        #expect(try SHA256Hex.of(file: out.appendingPathComponent("slow.bin")) == Pattern.sha256Hex(count: 3 << 20, seed: 3))
    }
}
