import FerryTestSupport
import Foundation
import Testing

/// A download whose network goes away waits instead of failing, and resumes when it returns:
/// nginx in one namespace the test makes, `ferry get --retries 0` in the other (any counted
/// retry would fail it), the default route deleted or the link taken down mid-download.
@Suite(.serialized, .enabled(if: NamespacePair.isAvailable,
                             "network namespaces cannot be made here (needs root and iproute2's ip netns)"))
struct NetworkWaitNamespaceTests {
    static let size = 12 << 20

    /// `PeerServer` is nginx inside the peer namespace on 192.0.2.2:8080, serving `www` at 1 MB/s.
    struct PeerServer {
        let process: ChildProcess
        let directory: TemporaryDirectory

        init(pair: NamespacePair, www: TemporaryDirectory) throws {
            directory = try TemporaryDirectory(prefix: "ferry-nginx", worldReadable: true)
            var user = ""
            if let entry = getpwuid(geteuid()), let group = getgrgid(getegid()) {
                user = "user \(String(cString: entry.pointee.pw_name)) \(String(cString: group.pointee.gr_name));"
            }
            let prefix = directory.path
            let configuration = """
            daemon off;
            worker_processes 1;
            \(user)
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/error.log warn;
            events { worker_connections 64; }
            http {
                default_type application/octet-stream;
                log_format ferry '$request_method $request_uri $status $body_bytes_sent "$http_range" "$http_if_range"';
                access_log \(prefix)/access.log ferry;
                client_body_temp_path \(prefix)/body;
                proxy_temp_path \(prefix)/proxy;
                fastcgi_temp_path \(prefix)/fastcgi;
                uwsgi_temp_path \(prefix)/uwsgi;
                scgi_temp_path \(prefix)/scgi;
                server {
                    listen 192.0.2.2:8080;
                    root \(www.path);
                    limit_rate 1m;
                    location / { }
                }
            }
            """
            try configuration.write(to: directory.file("nginx.conf"), atomically: true, encoding: .utf8)
            process = try ChildProcess.spawn(executable: "ip", arguments: [
                "netns", "exec", pair.peer, "/usr/sbin/nginx", "-p", prefix + "/", "-e", prefix + "/error.log",
                "-c", directory.file("nginx.conf").path,
            ])
            // Ready once a client in the other namespace gets an answer (at most 10 s).
            for _ in 0..<100 {
                let probe = try run(executable: "ip", arguments: ["netns", "exec", pair.client, "curl", "-s", "-o", "/dev/null",
                                                                  "--max-time", "1", "http://192.0.2.2:8080/"], timeout: .seconds(5))
                if probe.termination == .exited(0) { return }
                usleep(100_000)
            }
            throw TestSupportError("nginx in the peer namespace did not answer: \(accessLog) \(String(decoding: process.standardError, as: UTF8.self))")
        }

        var accessLog: String { (try? String(contentsOf: directory.file("access.log"), encoding: .utf8)) ?? "" }

        func stop() {
            _ = process.terminate(grace: .seconds(3))
            directory.remove()
        }
    }

    /// `size(of:)` is a file's size, 0 when it is missing.
    private func size(of url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// `waitUntil(timeout:_:)` checks `condition` every 100 ms until it holds or `timeout` passes.
    private func waitUntil(_ timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(100_000)
        }
        return condition()
    }

    private func listLine(state: TemporaryDirectory) throws -> String {
        try runFerry(["list", "--json"], stateDirectory: state.url).stdout
    }

    /// `run(_:cut:restore:)` downloads through a cut made by `cut` and undone by `restore`.
    private func download(cut: (NamespacePair) throws -> Void, restore: (NamespacePair) throws -> Void) throws {
        // Given nginx in the peer namespace, and ferry get in the client one with a default route.
        let pair = try NamespacePair()
        defer { pair.remove() }
        try pair.inClient("route", "add", "default", "via", "192.0.2.2", "dev", "va")
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("f.bin"), count: Self.size, seed: 7)
        let server = try PeerServer(pair: pair, www: www)
        defer { server.stop() }
        let get = try ChildProcess.spawn(executable: "ip", arguments: [
            "netns", "exec", pair.client, try ferryExecutableURL().path, "get", "--retries", "0", "-q",
            "--state-dir", state.path, "-d", out.path, "http://192.0.2.2:8080/f.bin",
        ])
        defer { get.kill() }
        let part = out.file("f.bin.part")
        #expect(waitUntil(20) { size(of: part) > 2 << 20 }, "no progress: \(server.accessLog)")

        // When the network goes away mid-download.
        try cut(pair)

        // Then within two seconds the transfer stops, the task waits queued (not failed), and
        // ferry get keeps waiting.
        #expect(waitUntil(3) { (try? listLine(state: state))?.contains("\"waiting\":\"network\"") == true },
                "\((try? listLine(state: state)) ?? "")")
        let stopped = size(of: part)
        usleep(1_500_000)
        #expect(size(of: part) == stopped)
        #expect(get.isRunning)
        let listed = try listLine(state: state)
        #expect(listed.contains("\"state\":\"queued\""), "\(listed)")

        // When the network returns.
        try restore(pair)

        // Then it resumes within two seconds with a 206 (If-Range) and finishes byte-exact.
        #expect(waitUntil(2.5) { size(of: part) > stopped || size(of: out.file("f.bin")) == Self.size }, "\(server.accessLog)")
        let result = get.wait(timeout: .seconds(60))
        #expect(result?.termination == .exited(0), "\(result?.stderr ?? "still running")")
        #expect(try SHA256Hex.of(file: out.file("f.bin")) == Pattern.sha256Hex(count: Self.size, seed: 7))
        let resumed = server.accessLog.split(separator: "\n").filter { $0.contains(" 206 ") && $0.contains("bytes=") }
        #expect(!resumed.isEmpty, "\(server.accessLog)")
        #expect(resumed.allSatisfy { !$0.hasSuffix("\"-\"") }, "If-Range missing: \(server.accessLog)")
    }

    @Test func theDefaultRouteDeletedMidDownloadWaitsAndResumes() throws {
        try download(cut: { try $0.inClient("route", "del", "default") },
                     restore: { try $0.inClient("route", "add", "default", "via", "192.0.2.2", "dev", "va") })
    }

    @Test func theLinkTakenDownMidDownloadWaitsAndResumes() throws {
        try download(cut: { try $0.inClient("link", "set", "va", "down") },
                     restore: { pair in
                         try pair.inClient("link", "set", "va", "up")
                         try pair.inClient("route", "replace", "default", "via", "192.0.2.2", "dev", "va")
                     })
    }
}
