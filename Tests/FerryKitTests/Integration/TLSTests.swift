import FerryTestSupport
import Foundation
import Testing
@testable import FerryKit

/// TLS verification and pinning against a real nginx over HTTPS on 127.0.0.1 (catalogue 25-26).
@Suite(.serialized) struct TLSTests {
    /// A self-signed certificate for `host` (IP or DNS name), its key, and its public key pin.
    struct Certificate {
        let certificate: URL
        let key: URL
        let pin: String
    }

    static func makeCertificate(in dir: TemporaryDirectory, name: String, subjectAltName: String) throws -> Certificate {
        let certificate = dir.file("\(name).pem")
        let key = dir.file("\(name).key")
        let made = try run(executable: "/usr/bin/openssl", arguments: [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out", certificate.path,
            "-days", "2", "-subj", "/CN=ferry-test", "-addext", "subjectAltName=\(subjectAltName)",
        ])
        guard made.succeeded else { throw TestSupportError("openssl req failed: \(made.stderr)") }
        let pin = try run(executable: "/bin/sh", arguments: ["-c", "openssl x509 -in '\(certificate.path)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"])
        guard pin.succeeded else { throw TestSupportError("pin failed: \(pin.stderr)") }
        chmod(certificate.path, 0o644)
        chmod(key.path, 0o644)
        return Certificate(certificate: certificate, key: key, pin: "sha256//" + pin.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Starts nginx serving `www` over HTTPS with `certificate`; returns the server and the HTTPS port.
    static func startTLS(www: TemporaryDirectory, certificate: Certificate) throws -> (NginxServer, Int) {
        let tlsPort = try Loopback.freePort()
        let nginx = try NginxServer.start(root: www.url, extraConfig: """
            listen 127.0.0.1:\(tlsPort) ssl;
            ssl_certificate \(certificate.certificate.path);
            ssl_certificate_key \(certificate.key.path);
            """)
        return (nginx, tlsPort)
    }

    private func fetch(_ url: String, policy: SecurityPolicy) async throws -> Result<TransferResult, FerryError> {
        var configuration = SessionConfiguration.default
        configuration.securityPolicy = policy
        let session = SessionManager(configuration: configuration)
        defer { session.invalidate() }
        let task = session.dataTask(with: Request(url: try Request.validatedURL(url)))
        task.resume()
        return await task.outcome()
    }

    @Test func selfSignedFailsByDefaultAndPassesWithItsCertificateAuthority() async throws {
        let keys = try TemporaryDirectory(worldReadable: true)
        let www = try TemporaryDirectory(worldReadable: true)
        defer { keys.remove(); www.remove() }
        try Pattern.writeFile(at: www.file("s.bin"), count: 100_000, seed: 21)
        let certificate = try Self.makeCertificate(in: keys, name: "ip", subjectAltName: "IP:127.0.0.1")
        let (nginx, port) = try Self.startTLS(www: www, certificate: certificate)
        defer { nginx.stop() }
        let url = "https://127.0.0.1:\(port)/s.bin"

        // Given the default policy, Then a self-signed certificate fails with a clear TLS error.
        let rejected = try await fetch(url, policy: .default)
        guard case .failure(.transport(.tls(let detail))) = rejected else {
            Issue.record("expected a TLS failure, got \(rejected)")
            return
        }
        #expect(detail.localizedCaseInsensitiveContains("certificate"))
        #expect(FerryError.transport(.tls(detail)).description.hasPrefix("TLS error: "))

        // Given its certificate as the trusted authority, Then the bytes arrive.
        let trusted = try await fetch(url, policy: SecurityPolicy(certificateAuthorityFile: certificate.certificate.path))
        #expect(SHA256Hex.of(data: try trusted.get().data ?? Data()) == Pattern.sha256Hex(count: 100_000, seed: 21))
    }

    @Test func pinnedKeysMustMatch() async throws {
        let keys = try TemporaryDirectory(worldReadable: true)
        let www = try TemporaryDirectory(worldReadable: true)
        defer { keys.remove(); www.remove() }
        try Pattern.writeFile(at: www.file("p.bin"), count: 10_000, seed: 22)
        let served = try Self.makeCertificate(in: keys, name: "served", subjectAltName: "IP:127.0.0.1")
        let other = try Self.makeCertificate(in: keys, name: "other", subjectAltName: "IP:127.0.0.1")
        let (nginx, port) = try Self.startTLS(www: www, certificate: served)
        defer { nginx.stop() }
        let url = "https://127.0.0.1:\(port)/p.bin"

        let matching = try await fetch(url, policy: SecurityPolicy(certificateAuthorityFile: served.certificate.path, pinnedPublicKeyHashes: [other.pin, served.pin]))
        #expect(try matching.get().response.statusCode == 200)

        let mismatched = try await fetch(url, policy: SecurityPolicy(certificateAuthorityFile: served.certificate.path, pinnedPublicKeyHashes: [other.pin]))
        guard case .failure(.transport(.tls(let detail))) = mismatched else {
            Issue.record("expected a pinning failure, got \(mismatched)")
            return
        }
        #expect(detail.localizedCaseInsensitiveContains("pinned") || detail.localizedCaseInsensitiveContains("public key"))
    }

    @Test func aCertificateForAnotherHostFails() async throws {
        let keys = try TemporaryDirectory(worldReadable: true)
        let www = try TemporaryDirectory(worldReadable: true)
        defer { keys.remove(); www.remove() }
        try Pattern.writeFile(at: www.file("h.bin"), count: 1000)
        let certificate = try Self.makeCertificate(in: keys, name: "dns", subjectAltName: "DNS:example.invalid")
        let (nginx, port) = try Self.startTLS(www: www, certificate: certificate)
        defer { nginx.stop() }

        let outcome = try await fetch("https://127.0.0.1:\(port)/h.bin", policy: SecurityPolicy(certificateAuthorityFile: certificate.certificate.path))

        guard case .failure(.transport(.tls)) = outcome else {
            Issue.record("expected a host-name failure, got \(outcome)")
            return
        }
    }
}
