import FerryTestSupport
import Foundation
import Testing

/// A queued task keeps its own trust, login and proxy settings: given to `ferry add` (as curl
/// users give them), in a batch file (aria2's option names) or through RPC, kept in the
/// journal, and used by whichever engine runs the task later (`ferry resume` in another
/// process, the daemon), against nginx over HTTPS on 127.0.0.1 with certificates made by the
/// test. No password is ever printed.
@Suite(.serialized) struct QueuedTrustTests {
    private static let password = "qu3ued-pass-9"

    /// The environment without the authorities curl reads, so only the options decide.
    private static var environment: [String: String] {
        var all = ProcessInfo.processInfo.environment
        for name in ["CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR", "FERRY_PASSWORD"] { all[name] = nil }
        return all
    }

    private func ferry(_ arguments: [String], state: URL) throws -> ProcessResult {
        try run(executable: try ferryExecutableURL().path, arguments: arguments + ["--state-dir", state.path],
                environment: Self.environment, timeout: .seconds(120))
    }

    private func expectNoSecret(_ result: ProcessResult) {
        #expect(!result.stdout.contains(Self.password) && !result.stderr.contains(Self.password), "the password was printed")
    }

    /// `Site` is nginx over HTTPS with the CA-signed leaf (/t.bin open, /private/a.bin behind
    /// Basic for alice), the directories of one test, and their removal.
    final class Site {
        let certificates: TestCertificates
        let www, secrets, out, state: TemporaryDirectory
        let nginx: NginxServer
        let port: Int

        init() throws {
            certificates = try TestCertificates()
            www = try TemporaryDirectory(worldReadable: true)
            secrets = try TemporaryDirectory(worldReadable: true)
            out = try TemporaryDirectory()
            state = try TemporaryDirectory()
            try FileManager.default.createDirectory(at: www.file("private"), withIntermediateDirectories: true)
            try Pattern.writeFile(at: www.file("t.bin"), count: 50_000, seed: 21)
            try Pattern.writeFile(at: www.file("private/a.bin"), count: 40_000, seed: 22)
            try "alice:{PLAIN}\(QueuedTrustTests.password)\n".write(to: secrets.file("htpasswd"), atomically: true, encoding: .utf8)
            port = try Loopback.freePort()
            nginx = try NginxServer.start(root: www.url, httpConfig: certificates.serverBlock(
                port: port, certificate: "leaf", root: www.url,
                extra: "location /private/ { auth_basic \"ferry\"; auth_basic_user_file \(secrets.file("htpasswd").path); }"))
        }

        deinit {
            nginx.stop()
            for directory in [www, secrets, out, state] { directory.remove() }
        }
    }

    @Test func queuedTasksKeepTheirTrustAcrossARestart() throws {
        let site = try Site()
        defer { withExtendedLifetime(site) {} }
        let (certificates, out, state, port) = (site.certificates, site.out, site.state, site.port)
        let url = "https://127.0.0.1:\(port)/t.bin"
        func whole(_ name: String, seed: Int = 21, count: Int = 50_000) -> Bool {
            (try? SHA256Hex.of(file: out.file(name))) == Pattern.sha256Hex(count: count, seed: seed)
        }

        // Added with their settings, by separate commands; nothing runs yet.
        let trusted = try ferry(["add", "--retries", "0", "-d", out.path, "-o", "cacert.bin", "--cacert", certificates.path("ca.pem"), url], state: state.url)
        #expect(trusted.exitStatus == 0, "\(trusted.stderr)")
        let insecure = try ferry(["add", "--retries", "0", "-d", out.path, "-o", "insecure.bin", "-k", url], state: state.url)
        #expect(insecure.exitStatus == 0 && insecure.stderr.contains("not checked"), "\(insecure.stderr)")
        let plain = try ferry(["add", "--retries", "0", "-d", out.path, "-o", "plain.bin", url], state: state.url)
        #expect(plain.exitStatus == 0, "\(plain.stderr)")
        let login = try ferry(["add", "--retries", "0", "-d", out.path, "-o", "login.bin", "--cacert", certificates.path("ca.pem"),
                               "-u", "alice:\(Self.password)", "https://127.0.0.1:\(port)/private/a.bin"], state: state.url)
        #expect(login.exitStatus == 0, "\(login.stderr)")
        expectNoSecret(login)
        let wrongPin = try ferry(["add", "--retries", "0", "-d", out.path, "-o", "wrongpin.bin", "--cacert", certificates.path("ca.pem"),
                                  "--pin", try certificates.publicKeyPin(of: "selfsigned"), url], state: state.url)
        #expect(wrongPin.exitStatus == 0, "\(wrongPin.stderr)")

        // The list shows each task's settings, the password masked.
        let listed = try ferry(["list", "--json"], state: state.url)
        #expect(listed.exitStatus == 0)
        expectNoSecret(listed)
        #expect(listed.stdout.contains("ca-certificate=") && listed.stdout.contains("check-certificate=false")
                && listed.stdout.contains("http-passwd=***"), "\(listed.stdout)")

        // Another process runs the queue with no option at all: each task with its own settings.
        let resumed = try ferry(["resume"], state: state.url)
        expectNoSecret(resumed)
        #expect(resumed.exitStatus == 1, "\(resumed.stderr)")
        #expect(whole("cacert.bin") && whole("insecure.bin"), "\(resumed.stderr)")
        #expect(whole("login.bin", seed: 22, count: 40_000), "\(resumed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.file("plain.bin").path))
        #expect(!FileManager.default.fileExists(atPath: out.file("wrongpin.bin").path))
        let after = try ferry(["list", "--json"], state: state.url)
        let failed = after.stdout.split(separator: "\n").filter { $0.contains("\"failed\"") }
        #expect(failed.count == 2 && failed.allSatisfy { $0.contains("TLS") }, "\(after.stdout)")
    }

    @Test func batchFilesAndRPCCarryTrustAndLoginsToTheDaemon() throws {
        let site = try Site()
        defer { withExtendedLifetime(site) {} }
        let (certificates, out, state, port) = (site.certificates, site.out, site.state, site.port)
        let ca = certificates.path("ca.pem")

        // A batch file as aria2 users write it: per-entry authorities, logins, -k.
        let batch = out.file("list.txt")
        try """
            https://127.0.0.1:\(port)/private/a.bin
              ca-certificate=\(ca)
              http-user=alice
              http-passwd=\(Self.password)
              out=batch-login.bin
            https://127.0.0.1:\(port)/t.bin
              check-certificate=false
              out=batch-insecure.bin
              https-proxy=http://127.0.0.1:9

            """.write(to: batch, atomically: true, encoding: .utf8)
        let added = try ferry(["add", "--paused", "-d", out.path, "-i", batch.path], state: state.url)
        #expect(added.exitStatus == 0, "\(added.stderr)")
        #expect(added.stderr.contains("https-proxy is ignored"), "\(added.stderr)")
        expectNoSecret(added)

        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }
        let gids = try #require(try daemon.result("aria2.tellWaiting", [0, 10]) as? [[String: Any]]).compactMap { $0["gid"] as? String }
        #expect(gids.count == 2)
        // getOption shows the settings, the password masked.
        let options = try #require(try daemon.result("aria2.getOption", [gids[0]]) as? [String: String])
        #expect(options["http-user"] == "alice" && options["http-passwd"] == "***" && options["ca-certificate"] == ca, "\(options)")

        // Through RPC: addUri with the authority; another added paused without one gets it, and
        // a new name, by changeOption (aria2 changes out on a waiting download too).
        let direct = try #require(try daemon.result("aria2.addUri", [["https://127.0.0.1:\(port)/t.bin"],
                                                                    ["dir": out.path, "out": "rpc.bin", "ca-certificate": ca]]) as? String)
        let later = try #require(try daemon.result("aria2.addUri", [["https://127.0.0.1:\(port)/t.bin"],
                                                                   ["dir": out.path, "out": "changed.bin", "pause": "true"]]) as? String)
        #expect(try daemon.result("aria2.changeOption", [later, ["ca-certificate": ca]]) as? String == "OK")
        #expect(try daemon.result("aria2.changeOption", [later, ["out": "other.bin"]]) as? String == "OK")
        let bad = try daemon.call("aria2.changeOption", [later, ["ca-certificate": out.file("missing.pem").path]])
        #expect(bad["error"] != nil)
        _ = try daemon.result("aria2.unpauseAll")

        let all = gids + [direct, later]
        let finished = daemon.waitUntil(timeout: .seconds(60)) {
            let statuses = (try? daemon.statuses()) ?? [:]
            return all.allSatisfy { statuses[$0]?["status"] as? String == "complete" }
        }
        #expect(finished, "\((try? daemon.statuses()) ?? [:])")
        for (name, seed, count) in [("batch-login.bin", 22, 40_000), ("batch-insecure.bin", 21, 50_000),
                                    ("rpc.bin", 21, 50_000), ("other.bin", 21, 50_000)] {
            #expect((try? SHA256Hex.of(file: out.file(name))) == Pattern.sha256Hex(count: count, seed: seed), "\(name)")
        }

        // ferry get hands its TLS options and login to the daemon with each download.
        let got = try ferry(["get", "-d", out.path, "-o", "get.bin", "--cacert", ca, "-u", "alice:\(Self.password)",
                             "https://127.0.0.1:\(port)/private/a.bin"], state: state.url)
        #expect(got.exitStatus == 0, "\(got.stderr)")
        #expect((try? SHA256Hex.of(file: out.file("get.bin"))) == Pattern.sha256Hex(count: 40_000, seed: 22))
        expectNoSecret(got)

        // A task queued with -k and run again by ferry get without it: -k does not outlive the run.
        let queued = try ferry(["add", "--paused", "-k", "-d", out.path, "-o", "rerun.bin", "https://127.0.0.1:\(port)/t.bin"], state: state.url)
        #expect(queued.exitStatus == 0, "\(queued.stderr)")
        let rerun = try ferry(["get", "-d", out.path, "-o", "rerun.bin", "--cacert", ca, "https://127.0.0.1:\(port)/t.bin"], state: state.url)
        #expect(rerun.exitStatus == 0, "\(rerun.stderr)")
        let listed = try ferry(["list", "--json"], state: state.url)
        let line = listed.stdout.split(separator: "\n").first { $0.contains("rerun.bin") } ?? ""
        #expect(line.contains("ca-certificate=") && !line.contains("check-certificate=false"), "\(line)")
    }
}
