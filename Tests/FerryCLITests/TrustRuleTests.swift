import FerryTestSupport
import Foundation
import Testing

/// `--trust 'HOST OPTION=VALUE ...'` and the configuration file's `trust` lines, against a
/// self-signed nginx on 127.0.0.1 with certificates made by the test.
@Suite(.serialized) struct TrustRuleTests {
    /// `ferry(_:state:)` runs ferry with `arguments`, and `--state-dir STATE` when given.
    private func ferry(_ arguments: [String], state: URL?) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        for name in ["CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR"] { environment[name] = nil }
        return try run(executable: try ferryExecutableURL().path, arguments: arguments + (state.map { ["--state-dir", $0.path] } ?? []),
                       environment: environment, timeout: .seconds(120))
    }

    @Test func aRuleForTheHostAcceptsASelfSignedServerFromTheCommandLineOrTheConfigurationFile() throws {
        // Given a self-signed server on 127.0.0.1
        let certificates = try TestCertificates()
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        try Pattern.writeFile(at: www.file("t.bin"), count: 30_000, seed: 23)
        let port = try Loopback.freePort()
        let nginx = try NginxServer.start(root: www.url, httpConfig: certificates.serverBlock(port: port, certificate: "selfsigned", root: www.url))
        defer { nginx.stop() }
        let url = "https://127.0.0.1:\(port)/t.bin"
        func get(_ name: String, _ options: [String], before: [String] = []) throws -> ProcessResult {
            try ferry(before + ["get", "--retries", "0", "-d", out.path, "-o", name] + options + [url], state: out.file("state-\(name)"))
        }
        func whole(_ name: String) -> Bool {
            (try? SHA256Hex.of(file: out.file(name))) == Pattern.sha256Hex(count: 30_000, seed: 23)
        }
        let keyPin = try certificates.publicKeyPin(of: "selfsigned")
        let otherKeyPin = try certificates.publicKeyPin(of: "leaf")

        // When nothing trusts it, it fails with a TLS error
        let refused = try get("refused.bin", ["--no-config"])
        #expect(refused.exitStatus == 1 && refused.stderr.contains("TLS error"), "\(refused.stderr)")
        // Then a rule for its host pinning its key passes (its chain unchecked, its key checked)
        let pinned = try get("pinned.bin", ["--no-config", "--trust", "127.0.0.1 check-certificate=false pin=\(keyPin)"])
        #expect(pinned.exitStatus == 0 && whole("pinned.bin"), "\(pinned.stderr)")
        #expect(!pinned.stderr.contains("not checked"), "\(pinned.stderr)")
        // and a rule pinning another key fails, naming the rule.
        let wrongKey = try get("wrongkey.bin", ["--no-config", "--trust", "127.0.0.1 check-certificate=false pin=\(otherKeyPin)"])
        #expect(wrongKey.exitStatus == 1 && wrongKey.stderr.contains("checked by the trust rule for 127.0.0.1"), "\(wrongKey.stderr)")
        // A rule for another host does not apply to this one.
        let otherHost = try get("otherhost.bin", ["--no-config", "--trust", "localhost pin=\(certificates.path("selfsigned.pem"))"])
        #expect(otherHost.exitStatus == 1 && otherHost.stderr.contains("TLS error"), "\(otherHost.stderr)")
        // A rule without any check at all is warned of.
        let unchecked = try get("unchecked.bin", ["--no-config", "--trust", "127.0.0.1 check-certificate=false"])
        #expect(unchecked.exitStatus == 0 && unchecked.stderr.contains("127.0.0.1 are not checked"), "\(unchecked.stderr)")

        // The same rule from the configuration file (its certificate as the only anchor).
        let config = out.file("ferry.conf")
        try "trust=127.0.0.1 pin=\(certificates.path("selfsigned.pem"))\n".write(to: config, atomically: true, encoding: .utf8)
        let fromFile = try get("config.bin", [], before: ["--config", config.path])
        #expect(fromFile.exitStatus == 0 && whole("config.bin"), "\(fromFile.stderr)")
        // A rule on the command line replaces the file's for the same host.
        let wrongInFile = out.file("wrong.conf")
        try "trust=127.0.0.1 check-certificate=false pin=\(otherKeyPin)\n".write(to: wrongInFile, atomically: true, encoding: .utf8)
        let fileAlone = try get("filealone.bin", [], before: ["--config", wrongInFile.path])
        #expect(fileAlone.exitStatus == 1, "\(fileAlone.stderr)")
        let overridden = try get("overridden.bin", ["--trust", "127.0.0.1 pin=\(certificates.path("selfsigned.pem"))"], before: ["--config", wrongInFile.path])
        #expect(overridden.exitStatus == 0 && whole("overridden.bin"), "\(overridden.stderr)")
    }

    @Test func aDaemonChecksEachHostByItsOwnRules() throws {
        // Given a daemon with a rule for 127.0.0.1 anchored to the self-signed certificate
        let certificates = try TestCertificates()
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("t.bin"), count: 30_000, seed: 29)
        let port = try Loopback.freePort()
        let nginx = try NginxServer.start(root: www.url, httpConfig: certificates.serverBlock(port: port, certificate: "selfsigned", root: www.url))
        defer { nginx.stop() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url, arguments: ["--no-config", "--trust", "127.0.0.1 pin=\(certificates.path("selfsigned.pem"))"])
        defer { daemon.stop() }
        // When the same server is asked for by its address (a rule) and by the name localhost (none)
        let byRule = try #require(try daemon.result("aria2.addUri", [["https://127.0.0.1:\(port)/t.bin"], ["dir": out.path, "out": "rule.bin"]]) as? String)
        let withoutRule = try #require(try daemon.result("aria2.addUri", [["https://localhost:\(port)/t.bin"], ["dir": out.path, "out": "none.bin", "max-tries": "1"]]) as? String)
        // Then the first completes and the second fails
        func status(_ gid: String) -> String? { (try? daemon.statuses())?[gid]?["status"] as? String }
        #expect(daemon.waitUntil(timeout: .seconds(30)) { status(byRule) == "complete" && status(withoutRule) == "error" }, "\((try? daemon.statuses()) ?? [:])")
        #expect((try? SHA256Hex.of(file: out.file("rule.bin"))) == Pattern.sha256Hex(count: 30_000, seed: 29))
    }

    @Test(.enabled(if: TmuxTerminal.isAvailable))
    func theTerminalUIGivesItsRulesToTheDaemonItStarts() throws {
        // Given the terminal UI opened with a rule for a self-signed server's host
        let certificates = try TestCertificates()
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        defer { www.remove(); out.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("t.bin"), count: 30_000, seed: 37)
        let port = try Loopback.freePort()
        let nginx = try NginxServer.start(root: www.url, httpConfig: certificates.serverBlock(port: port, certificate: "selfsigned", root: www.url))
        defer { nginx.stop() }
        let terminal = try TmuxTerminal(command: [try ferryExecutableURL().path, "tui", "--no-config", "--state-dir", state.path, "--dir", out.path,
                                                  "--trust", "127.0.0.1 pin=\(certificates.path("selfsigned.pem"))"],
                                        environment: ["NO_COLOR": "1"], width: 100, height: 12)
        defer { _ = try? runFerry(["stop", "--state-dir", state.path], timeout: .seconds(60)) }
        #expect(terminal.waitUntil(seconds: 20) { terminal.screen().contains { !$0.trimmingCharacters(in: .whitespaces).isEmpty } })
        // When a download from that server is queued from another shell
        let added = try runFerry(["add", "--state-dir", state.path, "-d", out.path, "https://127.0.0.1:\(port)/t.bin"], timeout: .seconds(60))
        try #require(added.exitStatus == 0, "\(String(decoding: added.standardError, as: UTF8.self))")
        // Then the daemon the UI started checks it by the rule, and it completes
        let done = terminal.waitUntil(seconds: 30) {
            (try? SHA256Hex.of(file: out.file("t.bin"))) == Pattern.sha256Hex(count: 30_000, seed: 37)
        }
        #expect(done, "\(terminal.screen())")
        try terminal.send("q")
    }

    @Test func aMalformedRuleIsAUsageErrorNamingIt() throws {
        let out = try TemporaryDirectory()
        defer { out.remove() }
        let url = "https://127.0.0.1:9/t.bin"
        for rule in ["127.0.0.1 pin", "127.0.0.1", "pin=sha256//x 127.0.0.1", "127.0.0.1 colour=blue", "*.* pin=sha256//x",
                     "127.0.0.1 pin=sha256//short", "127.0.0.1 ca-certificate=\(out.file("no-such.pem").path)",
                     "127.0.0.1 private-key=\(out.file("no-such.key").path)", "127.0.0.1 check-certificate=maybe"] {
            let result = try ferry(["get", "--no-config", "--retries", "0", "-d", out.path, "--trust", rule, url], state: out.file("state"))
            #expect(result.exitStatus == 2 && result.stderr.contains("--trust '\(rule)'"), "\(rule): \(result.stderr)")
        }
        // The other commands that run transfers refuse it too, before doing anything.
        for command in [["resume"], ["daemon"], ["put", "-F", "a=b", url]] {
            let result = try ferry(command + ["--no-config", "--trust", "127.0.0.1 colour=blue"], state: command[0] == "put" ? nil : out.file("state"))
            #expect(result.exitStatus == 2 && result.stderr.contains("--trust '127.0.0.1 colour=blue'"), "\(command): \(result.stderr)")
        }
        // In the configuration file, the line is named.
        let config = out.file("bad.conf")
        try "# rules\ntrust=127.0.0.1 colour=blue\n".write(to: config, atomically: true, encoding: .utf8)
        let fromFile = try ferry(["--config", config.path, "get", "-d", out.path, url], state: out.file("state"))
        #expect(fromFile.exitStatus == 2 && fromFile.stderr.contains(":2:") && fromFile.stderr.contains("colour"), "\(fromFile.stderr)")
    }
}
