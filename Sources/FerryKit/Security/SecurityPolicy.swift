/// `SecurityPolicy` says how TLS peers are verified: always by default, optionally pinned.
public struct SecurityPolicy: Sendable, Equatable {
    /// Whether the peer's certificate chain and host name are verified, `true` by default.
    public var verifiesPeer = true
    /// A CA bundle file to trust instead of the system's, `nil` by default.
    public var certificateAuthorityFile: String?
    /// Pinned public keys as `sha256//BASE64` hashes (libcurl's form); empty (no pinning) by default.
    public var pinnedPublicKeyHashes: [String] = []

    public init(verifiesPeer: Bool = true, certificateAuthorityFile: String? = nil, pinnedPublicKeyHashes: [String] = []) {
        self.verifiesPeer = verifiesPeer
        self.certificateAuthorityFile = certificateAuthorityFile
        self.pinnedPublicKeyHashes = pinnedPublicKeyHashes
    }

    /// Verify peers against the system's trust store, pin nothing.
    public static let `default` = SecurityPolicy()
}
