import FerryTestSupport
import Foundation
import Testing
@testable import FerryKit

/// `SecurityPolicy` per request against nginx over HTTPS on 127.0.0.1, with a CA, leaves,
/// an expired and a self-signed certificate and a client certificate made by the test.
@Suite(.serialized) struct TrustPolicyTests {
    /// `Servers` is one nginx with an HTTPS server per certificate of interest.
    final class Servers {
        let certificates: TestCertificates
        let www: TemporaryDirectory
        let nginx: NginxServer
        var ports: [String: Int] = [:]

        init() throws {
            certificates = try TestCertificates()
            www = try TemporaryDirectory(worldReadable: true)
            try Pattern.writeFile(at: www.file("t.bin"), count: 50_000, seed: 31)
            var blocks = ""
            var ports: [String: Int] = [:]
            for name in ["leaf", "expired", "wronghost", "selfsigned", "client-required"] {
                let port = try Loopback.freePort()
                ports[name] = port
                let certificate = name == "client-required" ? "leaf" : name
                let extra = name == "client-required"
                    ? "ssl_client_certificate \"\(certificates.path("ca.pem"))\"; ssl_verify_client on;" : ""
                blocks += certificates.serverBlock(port: port, certificate: certificate, root: www.url, extra: extra)
            }
            self.ports = ports
            nginx = try NginxServer.start(root: www.url, httpConfig: blocks)
        }

        deinit {
            nginx.stop()
            www.remove()
        }

        func url(_ server: String) -> URL {
            URL(string: "https://127.0.0.1:\(ports[server] ?? 0)/t.bin")!
        }
    }

    private func fetch(_ url: URL, policy: SecurityPolicy?, session sessionPolicy: SecurityPolicy = .default) async -> Result<TransferResult, FerryError> {
        var configuration = SessionConfiguration.default
        configuration.securityPolicy = sessionPolicy
        let session = SessionManager(configuration: configuration)
        defer { session.invalidate() }
        var request = Request(url: url)
        request.securityPolicy = policy
        let task = session.dataTask(with: request)
        task.resume()
        return await task.outcome()
    }

    private func isTLSFailure(_ outcome: Result<TransferResult, FerryError>) -> Bool {
        if case .failure(.transport(.tls)) = outcome { return true }
        return false
    }

    private func isWholeFile(_ outcome: Result<TransferResult, FerryError>) -> Bool {
        guard case .success(let result) = outcome, let data = result.data else { return false }
        return SHA256Hex.of(data: data) == Pattern.sha256Hex(count: 50_000, seed: 31)
    }

    @Test func theRequestsPolicyDecidesAndEachFailureIsATLSError() async throws {
        let servers = try Servers()
        var trusted = SecurityPolicy(certificateAuthorityFile: servers.certificates.path("ca.pem"))
        // The system's authorities do not know the test CA; the request's policy does.
        #expect(isTLSFailure(await fetch(servers.url("leaf"), policy: nil)))
        #expect(isWholeFile(await fetch(servers.url("leaf"), policy: trusted)))
        // A request's policy replaces the session's.
        #expect(isTLSFailure(await fetch(servers.url("leaf"), policy: .default, session: trusted)))
        // Expired, another host's, self-signed: refused under the CA.
        let expired = await fetch(servers.url("expired"), policy: trusted)
        guard case .failure(.transport(.tls(let detail))) = expired else {
            Issue.record("expected a TLS failure, got \(expired)")
            return
        }
        #expect(detail.localizedCaseInsensitiveContains("expired"), "\(detail)")
        #expect(isTLSFailure(await fetch(servers.url("wronghost"), policy: trusted)))
        #expect(isTLSFailure(await fetch(servers.url("selfsigned"), policy: trusted)))
        // Not checking the host name lets the other host's certificate through, not the expired one.
        trusted.validatesDomainName = false
        #expect(isWholeFile(await fetch(servers.url("wronghost"), policy: trusted)))
        #expect(isTLSFailure(await fetch(servers.url("expired"), policy: trusted)))
        // --insecure lets everything through.
        let insecure = SecurityPolicy(verifiesPeer: false)
        #expect(isWholeFile(await fetch(servers.url("expired"), policy: insecure)))
        #expect(isWholeFile(await fetch(servers.url("selfsigned"), policy: insecure)))
    }

    @Test func pinsFromHashesKeyFilesAndCertificateFiles() async throws {
        let servers = try Servers()
        let certificates = servers.certificates
        // A key pin read from a PEM public key is the hash openssl computes.
        var byKeyFile = SecurityPolicy(certificateAuthorityFile: certificates.path("ca.pem"))
        try byKeyFile.addPin(certificates.path("leaf.pub"))
        #expect(byKeyFile.pinnedPublicKeyHashes == [try certificates.publicKeyPin(of: "leaf")])
        #expect(byKeyFile.pinningMode == .publicKey)
        #expect(isWholeFile(await fetch(servers.url("leaf"), policy: byKeyFile)))
        // Any one pin matching passes; none matching fails.
        var wrong = SecurityPolicy(certificateAuthorityFile: certificates.path("ca.pem"))
        try wrong.addPin(try certificates.publicKeyPin(of: "selfsigned"))
        #expect(isTLSFailure(await fetch(servers.url("leaf"), policy: wrong)))
        try wrong.addPin(try certificates.publicKeyPin(of: "leaf"))
        #expect(isWholeFile(await fetch(servers.url("leaf"), policy: wrong)))
        // Certificate mode: the pinned certificates are the only anchors, the system's are not used.
        var anchored = SecurityPolicy()
        try anchored.addPin(certificates.path("selfsigned.pem"))
        #expect(anchored.pinningMode == .certificate)
        #expect(isWholeFile(await fetch(servers.url("selfsigned"), policy: anchored)))
        #expect(isTLSFailure(await fetch(servers.url("leaf"), policy: anchored)))
        var byCA = SecurityPolicy()
        try byCA.addPin(certificates.path("ca.pem"))
        #expect(isWholeFile(await fetch(servers.url("leaf"), policy: byCA)))
        // Bad pins are input errors that say what a pin is.
        var bad = SecurityPolicy()
        #expect(throws: FerryError.self) { try bad.addPin("sha256//short") }
        #expect(throws: FerryError.self) { try bad.addPin(servers.www.file("t.bin").path) }
        #expect(throws: FerryError.self) {
            var mixed = SecurityPolicy()
            try mixed.addPin(certificates.path("ca.pem"))
            try mixed.addPin(certificates.path("leaf.pub"))
        }
    }

    @Test func aServerAskingForAClientCertificateGetsOne() async throws {
        let servers = try Servers()
        var policy = SecurityPolicy(certificateAuthorityFile: servers.certificates.path("ca.pem"))
        // nginx answers 400 ("No required SSL certificate was sent") to a client without one.
        let refused = await fetch(servers.url("client-required"), policy: policy)
        #expect((try? refused.get().response.statusCode) == 400, "\(refused)")
        policy.clientCertificateFile = servers.certificates.path("client.pem")
        policy.clientKeyFile = servers.certificates.path("client.key")
        #expect(isWholeFile(await fetch(servers.url("client-required"), policy: policy)))
    }

    @Test func theEnvironmentNamesAuthoritiesAsCurlReadsIt() {
        let fromBundle = SecurityPolicy().withEnvironment(["CURL_CA_BUNDLE": "/a.pem", "SSL_CERT_FILE": "/b.pem", "SSL_CERT_DIR": "/certs"])
        #expect(fromBundle.certificateAuthorityFile == "/a.pem" && fromBundle.certificateAuthorityDirectory == "/certs")
        #expect(SecurityPolicy().withEnvironment(["SSL_CERT_FILE": "/b.pem"]).certificateAuthorityFile == "/b.pem")
        // What the policy names itself wins.
        #expect(SecurityPolicy(certificateAuthorityFile: "/own.pem").withEnvironment(["SSL_CERT_FILE": "/b.pem"]).certificateAuthorityFile == "/own.pem")
        #expect(SecurityPolicy().withEnvironment(["SSL_CERT_FILE": ""]).certificateAuthorityFile == nil)
    }
}
