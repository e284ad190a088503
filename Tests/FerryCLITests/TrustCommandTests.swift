import FerryTestSupport
import Foundation
import Testing

/// `ferry get`'s TLS options as curl users give them, against nginx over HTTPS on 127.0.0.1
/// with certificates made by the test.
@Suite(.serialized) struct TrustCommandTests {
    private func ferry(_ arguments: [String], state: URL, environment: [String: String] = [:]) throws -> ProcessResult {
        var all = ProcessInfo.processInfo.environment
        for name in ["CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR"] { all[name] = nil }
        all.merge(environment) { $1 }
        return try run(executable: try ferryExecutableURL().path, arguments: arguments + ["--state-dir", state.path],
                       environment: all, timeout: .seconds(120))
    }

    @Test func authoritiesPinsAndInsecureAsCurlUsersGiveThem() throws {
        let certificates = try TestCertificates()
        let www = try TemporaryDirectory(worldReadable: true)
        let out = try TemporaryDirectory()
        defer { www.remove(); out.remove() }
        try Pattern.writeFile(at: www.file("t.bin"), count: 60_000, seed: 12)
        let port = try Loopback.freePort()
        let nginx = try NginxServer.start(root: www.url, httpConfig: certificates.serverBlock(port: port, certificate: "leaf", root: www.url))
        defer { nginx.stop() }
        let url = "https://127.0.0.1:\(port)/t.bin"
        func get(_ name: String, _ options: [String], environment: [String: String] = [:]) throws -> ProcessResult {
            let state = out.file("state-\(name)")
            return try ferry(["get", "--retries", "0", "-d", out.path, "-o", name] + options + [url], state: state, environment: environment)
        }
        func whole(_ name: String) -> Bool {
            (try? SHA256Hex.of(file: out.file(name))) == Pattern.sha256Hex(count: 60_000, seed: 12)
        }

        // The system's authorities do not know the test CA: a clear TLS error, exit 1.
        let refused = try get("refused.bin", [])
        #expect(refused.exitStatus == 1 && refused.stderr.contains("TLS error"), "\(refused.stderr)")
        // --cacert, and SSL_CERT_FILE as curl reads it.
        let trusted = try get("cacert.bin", ["--cacert", certificates.path("ca.pem")])
        #expect(trusted.exitStatus == 0 && whole("cacert.bin"), "\(trusted.stderr)")
        let fromEnvironment = try get("env.bin", [], environment: ["SSL_CERT_FILE": certificates.path("ca.pem")])
        #expect(fromEnvironment.exitStatus == 0 && whole("env.bin"), "\(fromEnvironment.stderr)")
        // -k passes, and says what it does.
        let insecure = try get("insecure.bin", ["-k"])
        #expect(insecure.exitStatus == 0 && whole("insecure.bin"))
        #expect(insecure.stderr.contains("not checked"), "\(insecure.stderr)")
        // A pin: the server's key passes, another key fails.
        let pinned = try get("pinned.bin", ["--cacert", certificates.path("ca.pem"), "--pin", certificates.path("leaf.pub")])
        #expect(pinned.exitStatus == 0 && whole("pinned.bin"), "\(pinned.stderr)")
        let wrongPin = try get("wrongpin.bin", ["--cacert", certificates.path("ca.pem"), "--pin", try certificates.publicKeyPin(of: "selfsigned")])
        #expect(wrongPin.exitStatus == 1 && wrongPin.stderr.contains("TLS error"), "\(wrongPin.stderr)")
        // A bad option value is a usage error before anything is sent.
        let bad = try get("bad.bin", ["--cacert", out.file("no-such.pem").path])
        #expect(bad.exitStatus == 2 && bad.stderr.contains("--cacert"), "\(bad.stderr)")
    }

    @Test func putTakesTheSameTrustOptions() throws {
        let certificates = try TestCertificates()
        let www = try TemporaryDirectory(worldReadable: true)
        defer { www.remove() }
        let port = try Loopback.freePort()
        let nginx = try NginxServer.start(root: www.url, httpConfig: certificates.serverBlock(port: port, certificate: "leaf", root: www.url,
                                                                                               extra: "location /up { return 200 \"received\\n\"; }"))
        defer { nginx.stop() }
        let url = "https://127.0.0.1:\(port)/up"
        func put(_ arguments: [String]) throws -> ProcessResult {
            var environment = ProcessInfo.processInfo.environment
            for name in ["CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR"] { environment[name] = nil }
            return try run(executable: try ferryExecutableURL().path, arguments: ["put"] + arguments, environment: environment, timeout: .seconds(120))
        }

        let refused = try put(["-F", "a=b", url])
        #expect(refused.exitStatus == 1 && refused.stderr.contains("TLS error"), "\(refused.stderr)")
        let trusted = try put(["-F", "a=b", "--cacert", certificates.path("ca.pem"), url])
        #expect(trusted.exitStatus == 0 && trusted.stdout == "received\n", "\(trusted.stderr)")
        let insecure = try put(["-F", "a=b", "-k", url])
        #expect(insecure.exitStatus == 0 && insecure.stderr.contains("not checked"), "\(insecure.stderr)")
    }

    @Test func tlsOptionsTravelWithTheTasksHandedToADaemon() throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }
        let pin = "sha256//" + Data(count: 32).base64EncodedString()
        let result = try ferry(["get", "--retries", "0", "--pin", pin, "https://127.0.0.1:9/x"], state: state.url)
        // Nothing listens on port 9: the download fails, with its pin kept by the daemon's task.
        #expect(result.exitStatus == 1, "\(result.stderr)")
        let listed = try ferry(["list", "--json"], state: state.url)
        #expect(listed.stdout.contains("pin=\(pin)"), "\(listed.stdout)")
    }
}
