import Foundation

/// `TestCertificates` are the TLS certificates of the trust tests, made in a temporary
/// directory by `make_certificates.py` (Python's cryptography package): a CA (`ca.pem`),
/// leaves it signed for 127.0.0.1 and localhost (`leaf`), for another host (`wronghost`) and
/// already expired (`expired`), a self-signed one (`selfsigned`), a client certificate
/// (`client`), and the leaf's public key (`leaf.pub`). Each `NAME.pem` has its `NAME.key`.
public final class TestCertificates {
    /// `directory` holds the files; removed on deinit.
    public let directory: TemporaryDirectory

    /// `init()` makes the certificates (a second or so).
    public init() throws {
        directory = try TemporaryDirectory(worldReadable: true)
        let script = TestSupport.serversDirectory.appendingPathComponent("make_certificates.py").path
        let made = try run(executable: "/usr/bin/env", arguments: ["python3", script, directory.path], timeout: .seconds(60))
        guard made.succeeded else {
            directory.remove()
            throw TestSupportError("make_certificates.py failed (python3-cryptography installed? make deps): \(made.stderr)")
        }
    }

    deinit { directory.remove() }

    /// `path(_:)` is the path of a file of the set (`"ca.pem"`, `"leaf.key"`, ...).
    public func path(_ name: String) -> String {
        directory.file(name).path
    }

    /// `publicKeyPin(of:)` is the `sha256//BASE64` pin of `NAME.pem`'s public key, made by openssl.
    public func publicKeyPin(of name: String) throws -> String {
        let made = try run(executable: "/bin/sh", arguments: ["-c", "openssl x509 -in '\(path(name + ".pem"))' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"])
        guard made.succeeded else { throw TestSupportError("openssl failed: \(made.stderr)") }
        return "sha256//" + made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `serverBlock(port:certificate:root:extra:)` is an nginx `server` block serving `root`
    /// over HTTPS on 127.0.0.1:`port` with `NAME.pem` (for `NginxServer.start(httpConfig:)`);
    /// `extra` goes inside it (for example `ssl_verify_client on;`).
    public func serverBlock(port: Int, certificate name: String, root: URL, extra: String = "") -> String {
        """
        server {
            listen 127.0.0.1:\(port) ssl;
            ssl_certificate "\(path(name + ".pem"))";
            ssl_certificate_key "\(path(name + ".key"))";
            root "\(root.path)";
            \(extra)
        }
        """
    }
}
