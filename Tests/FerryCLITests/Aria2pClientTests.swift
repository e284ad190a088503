import FerryTestSupport
import Foundation
import Testing

/// A real aria2 client, aria2p (PyPI, `make deps` installs it), drives a Ferry daemon through
/// its Python API and its command line: add, list, pause, resume, remove, byte-exact files.
@Suite(.serialized) struct Aria2pClientTests {
    /// `available` is true when `python3 -c 'import aria2p'` works.
    static let available: Bool = {
        (try? run(executable: "python3", arguments: ["-c", "import aria2p"], timeout: .seconds(30)))?.exitStatus == 0
    }()

    /// `waitFunction` is the Python `wait(what, condition, seconds=60)` of the aria2p scripts: it
    /// polls `condition` every 100 ms and exits the script, naming `what` and every download's
    /// state (through `api`), when it does not hold in time.
    static let waitFunction = #"""
    def wait(what, condition, seconds=60):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if condition():
                return
            time.sleep(0.1)
        states = [(d["gid"], d["status"], d["completedLength"], d.get("errorMessage")) for d in
                  api.client.tell_active() + api.client.tell_waiting(0, 100) + api.client.tell_stopped(0, 100)]
        sys.exit("timed out waiting for " + what + ": " + repr(states))
    """#

    /// The script run by the test: it prints one line per step and exits non-zero on the first
    /// expectation that fails (with the reason on stderr).
    static let script = #"""
    import sys, time
    import aria2p

    port, secret, out, fast_url, slow_url, mirror_url = sys.argv[1:7]
    api = aria2p.API(aria2p.Client(host="http://127.0.0.1", port=int(port), secret=secret, timeout=30))

    """# + Aria2pClientTests.waitFunction + #"""

    def find(gid):
        for download in api.get_downloads():
            if download.gid == gid:
                return download
        return None

    fast = api.add_uris([fast_url], options={"dir": out, "out": "fast.bin"})
    slow = api.add_uris([slow_url], options={"dir": out})
    mirrored = api.add_uris([mirror_url], options={"dir": out, "pause": "true"})
    print("added", fast.gid, slow.gid, mirrored.gid)

    wait("the fast download to complete", lambda: find(fast.gid).is_complete)
    print("fast complete", find(fast.gid).total_length)
    wait("the slow download to be active", lambda: find(slow.gid).is_active and find(slow.gid).completed_length > 0)
    print("slow active")
    assert find(mirrored.gid).is_paused, find(mirrored.gid).status

    api.pause([find(slow.gid)])
    wait("the slow download to pause", lambda: find(slow.gid).is_paused)
    paused_at = find(slow.gid).completed_length
    print("slow paused at", paused_at)
    time.sleep(1)
    assert find(slow.gid).is_paused

    api.resume([find(slow.gid), find(mirrored.gid)])
    wait("both to complete", lambda: find(slow.gid).is_complete and find(mirrored.gid).is_complete, seconds=90)
    print("all complete")

    stats = api.get_stats()
    assert stats.num_stopped_total == 3, stats.num_stopped_total
    names = sorted(d.name for d in api.get_downloads())
    print("names", names)

    result = api.remove([find(fast.gid)])
    assert result == [True], result
    assert find(fast.gid) is None
    print("removed")
    """#

    @Test(.enabled(if: Aria2pClientTests.available, "aria2p is not installed (make deps installs it with pip)"))
    func aria2pAddsListsPausesResumesAndRemoves() throws {
        // Given a daemon and nginx serving three files, one behind a slow location.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try FileManager.default.createDirectory(at: www.file("slow"), withIntermediateDirectories: true)
        try Pattern.writeFile(at: www.file("f.bin"), count: 1 << 20, seed: 1)
        try Pattern.writeFile(at: www.file("slow/s.bin"), count: 3 << 20, seed: 2)
        try Pattern.writeFile(at: www.file("m.bin"), count: 2 << 20, seed: 4)
        let nginx = try NginxServer.start(root: www.url, extraConfig: "location /slow/ { limit_rate 1m; sendfile_max_chunk 64k; }")
        defer { nginx.stop() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }
        let out = state.file("out")

        // When aria2p adds them, waits, pauses the slow one, resumes it, and removes a result...
        let python = try run(executable: "python3", arguments: [
            "-c", Self.script, String(daemon.port), FerryDaemon.secret, out.path,
            nginx.url("/f.bin").absoluteString, nginx.url("/slow/s.bin").absoluteString, nginx.url("/m.bin").absoluteString,
        ], timeout: .seconds(180))

        // Then every step held, and the files are byte-exact.
        #expect(python.exitStatus == 0, "stdout: \(python.stdout)\nstderr: \(python.stderr)")
        #expect(python.stdout.contains("removed"), "\(python.stdout)")
        #expect(python.stdout.contains("names ['fast.bin', 'm.bin', 's.bin']"), "\(python.stdout)")
        #expect(try SHA256Hex.of(file: out.appendingPathComponent("fast.bin")) == Pattern.sha256Hex(count: 1 << 20, seed: 1))
        #expect(try SHA256Hex.of(file: out.appendingPathComponent("s.bin")) == Pattern.sha256Hex(count: 3 << 20, seed: 2))
        #expect(try SHA256Hex.of(file: out.appendingPathComponent("m.bin")) == Pattern.sha256Hex(count: 2 << 20, seed: 4))
        // The slow download was paused and resumed with a Range, never fetched twice in full.
        let slow = nginx.accessLog().split(separator: "\n").filter { $0.contains("/slow/s.bin") }
        #expect(slow.count == 2, "\(slow)")
        #expect(slow.contains { $0.contains(" 206 ") }, "\(slow)")
        #expect(daemon.process.isRunning)
    }

    @Test(.enabled(if: Aria2pClientTests.available, "aria2p is not installed (make deps installs it with pip)"))
    func aria2pCommandLineAddsAndShows() throws {
        // Given a daemon and nginx serving a file.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("c.bin"), count: 512 << 10, seed: 9)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url, arguments: ["-d", state.file("out").path])
        defer { daemon.stop() }
        let client = ["-m", "aria2p", "--host", "http://127.0.0.1", "--port", String(daemon.port), "--secret", FerryDaemon.secret]

        // When aria2p's command line adds a URL and, once done, shows the list...
        let add = try run(executable: "python3", arguments: client + ["add", nginx.url("/c.bin").absoluteString], timeout: .seconds(60))
        let done = try daemon.waitUntil(timeout: .seconds(30)) { try daemon.statuses().values.contains { $0["status"] as? String == "complete" } }
        let show = try run(executable: "python3", arguments: client + ["show"], timeout: .seconds(60))

        // Then the file is byte-exact and the list shows it complete.
        #expect(add.exitStatus == 0, "\(add.stdout) \(add.stderr)")
        #expect(done)
        #expect(try SHA256Hex.of(file: state.file("out/c.bin")) == Pattern.sha256Hex(count: 512 << 10, seed: 9))
        #expect(show.exitStatus == 0, "\(show.stdout) \(show.stderr)")
        #expect(show.stdout.contains("c.bin") && show.stdout.contains("complete"), "\(show.stdout)")
    }
}
