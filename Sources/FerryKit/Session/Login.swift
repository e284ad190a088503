/// `Login` is a user name and password for HTTP authentication (curl's `-u`), sent only to
/// the origin the request's secrets belong to (``Request/secretsOrigin``), never printed.
public struct Login: Sendable, Hashable, CustomStringConvertible {
    /// `Scheme` is the authentication the login may be sent with.
    public enum Scheme: String, Sendable, Hashable, CaseIterable {
        /// Basic, sent with the first request (curl's default).
        case basic
        /// Digest, after the server's challenge.
        case digest
        /// Whichever the server asks for, Basic or Digest, after its challenge (never sent
        /// before the server says how).
        case any
    }

    public var user: String
    public var password: String
    public var scheme: Scheme

    public init(user: String, password: String, scheme: Scheme = .any) {
        self.user = user
        self.password = password
        self.scheme = scheme
    }

    /// The user name and a mask: a login printed by mistake shows no password.
    public var description: String { "\(user):***" }
}

/// `ProxySettings` is the proxy a request goes through (curl's `--proxy` and `--noproxy`).
public struct ProxySettings: Sendable, Hashable, CustomStringConvertible {
    /// The proxy's URL: `http://`, `https://`, `socks5://`, `socks5h://` (names resolved by
    /// the proxy) or `socks4a://`, with credentials if it needs them (`http://user:pw@host:3128`).
    public var url: String
    /// Hosts reached without the proxy, comma-separated as curl takes them (`*` for every
    /// host); empty: every request goes through the proxy, loopback ones too, as with curl.
    public var noProxy: String

    public init(url: String, noProxy: String = "") {
        self.url = url
        self.noProxy = noProxy
    }

    /// The proxy's URL with its password masked.
    public var description: String { URLMasking.mask(url) }

    /// The proxy schemes Ferry accepts.
    public static let schemes: Set<String> = ["http", "https", "socks5", "socks5h", "socks4a", "socks4"]
}
