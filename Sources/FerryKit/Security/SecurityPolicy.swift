import Foundation

/// `SecurityPolicy` says how TLS peers are evaluated, as AFNetworking's `AFSecurityPolicy`
/// does: the chain and host name are verified against the system's (or given) authorities by
/// default; pins narrow that down; `verifiesPeer = false` is curl's `--insecure`.
///
/// Pinning has AFNetworking's two modes: **public key** (`pinnedPublicKeyHashes`, the leaf's
/// key hashed as libcurl's `sha256//BASE64`; any one matching passes) and **certificate**
/// (`pinnedCertificates`, PEM: they become the only trusted anchors, so the peer's chain must
/// lead to one of them). A host with a rule of the session's ``ServerTrustManager`` is
/// evaluated by that rule; any other host by the request's own policy
/// (`Request.securityPolicy`), else the session's. Ferry follows redirects itself, so every
/// hop's connection is checked against its host's policy, pins included.
public struct SecurityPolicy: Sendable, Equatable {
    /// `PinningMode` is AFNetworking's `AFSSLPinningMode`.
    public enum PinningMode: Sendable, Equatable {
        case none, publicKey, certificate
    }

    /// Whether the peer's certificate chain is verified, `true` by default (`false`:
    /// AFNetworking's `allowInvalidCertificates`, curl's `--insecure`).
    public var verifiesPeer = true
    /// Whether the certificate must name the host, `true` by default.
    public var validatesDomainName = true
    /// A CA bundle file (PEM) to trust instead of the system's, `nil` by default.
    public var certificateAuthorityFile: String?
    /// A directory of CA certificates (hashed names, as `c_rehash` makes), `nil` by default.
    public var certificateAuthorityDirectory: String?
    /// Pinned public keys as `sha256//BASE64` hashes (libcurl's form); empty by default.
    public var pinnedPublicKeyHashes: [String] = []
    /// Pinned certificates in PEM: the only anchors when not empty; empty by default.
    public var pinnedCertificates: [String] = []
    /// A client certificate (PEM) to present, `nil` by default; its key is in
    /// `clientKeyFile`, or in the same file when that is `nil`.
    public var clientCertificateFile: String?
    /// The client certificate's private key (PEM, unencrypted), `nil` by default.
    public var clientKeyFile: String?

    public init(verifiesPeer: Bool = true, certificateAuthorityFile: String? = nil, pinnedPublicKeyHashes: [String] = []) {
        self.verifiesPeer = verifiesPeer
        self.certificateAuthorityFile = certificateAuthorityFile
        self.pinnedPublicKeyHashes = pinnedPublicKeyHashes
    }

    /// Verify peers against the system's trust store, pin nothing.
    public static let `default` = SecurityPolicy()

    /// `pinningMode` is the mode the pins give.
    public var pinningMode: PinningMode {
        if !pinnedCertificates.isEmpty { return .certificate }
        if !pinnedPublicKeyHashes.isEmpty { return .publicKey }
        return .none
    }

    /// `withEnvironment(_:)` is this policy with the authorities named by the environment as
    /// curl reads them (`CURL_CA_BUNDLE`, then `SSL_CERT_FILE`; `SSL_CERT_DIR`), where the
    /// policy names none itself.
    public func withEnvironment(_ environment: [String: String]) -> SecurityPolicy {
        var policy = self
        if policy.certificateAuthorityFile == nil {
            policy.certificateAuthorityFile = [environment["CURL_CA_BUNDLE"], environment["SSL_CERT_FILE"]]
                .compactMap { $0 }.first { !$0.isEmpty }
        }
        if policy.certificateAuthorityDirectory == nil, let directory = environment["SSL_CERT_DIR"], !directory.isEmpty {
            policy.certificateAuthorityDirectory = directory
        }
        return policy
    }
}
