/// `RequestOriginPolicy` decides, before any method runs, whether a request on a TCP endpoint
/// may reach the RPC at all, from its `Host` and `Origin` headers alone.
///
/// - `Host` must name the daemon's own loopback address (`127.0.0.1`, `localhost` or `[::1]`,
///   any port, so an SSH tunnel's local port works). A page whose name an attacker rebinds to
///   127.0.0.1 sends its own name here: DNS rebinding is refused. Exactly one `Host` is
///   required, whatever the HTTP version (the version is not visible past the HTTP parser, and
///   every current client sends `Host`). With `allowsAnyHost` (`--rpc-listen-all`) any `Host`
///   or none is accepted.
/// - `Origin`, which browsers add to every cross-origin request and every `POST`, must be the
///   daemon's own (`http://127.0.0.1:PORT`, `http://localhost:PORT`, `http://[::1]:PORT`), or be
///   absent, as from curl, aria2p and scripts. A web page elsewhere that posts a `text/plain`
///   call with a token is refused before the call runs. With `allowsAnyOrigin`
///   (`--rpc-allow-origin-all`) every origin is accepted.
///
/// `control.sock` is not checked: its file mode and peer credentials guard it, and a client on a
/// Unix socket may send any `Host`.
///
/// ```swift
/// let policy = RequestOriginPolicy(port: 6800)
/// policy.refusal(hosts: ["127.0.0.1:6800"], origins: [])                       // nil: allowed
/// policy.refusal(hosts: ["127.0.0.1:6800"], origins: ["http://evil.example"])  // .origin
/// ```
public struct RequestOriginPolicy: Sendable, Equatable {
    /// `loopbackNames` are the host names (lowercase, IPv6 in brackets) that name the daemon.
    public static let loopbackNames: Set<String> = ["127.0.0.1", "localhost", "[::1]"]

    /// `Refusal` is why a request is refused.
    public enum Refusal: Sendable, Equatable {
        /// `origin` is an `Origin` header that is not the daemon's own.
        case origin
        /// `host` is a `Host` header that does not name the daemon's loopback address, more
        /// than one `Host`, or none.
        case host

        /// `message` is the short plain-text answer, naming the flag that would allow it.
        public var message: String {
            switch self {
            case .origin:
                return "Forbidden: web pages of other origins may not call this RPC (see --rpc-allow-origin-all)\n"
            case .host:
                return "Forbidden: the Host header must be 127.0.0.1, localhost or [::1] (see --rpc-listen-all)\n"
            }
        }
    }

    /// `port` is the daemon's TCP port, the port an allowed `Origin` names.
    public var port: Int
    /// `allowsAnyOrigin` accepts every `Origin` (`--rpc-allow-origin-all`); `false` by default.
    public var allowsAnyOrigin: Bool
    /// `allowsAnyHost` accepts every `Host`, or none (`--rpc-listen-all`); `false` by default.
    public var allowsAnyHost: Bool

    /// `init(port:allowsAnyOrigin:allowsAnyHost:)` makes the policy of the endpoint on `port`.
    public init(port: Int, allowsAnyOrigin: Bool = false, allowsAnyHost: Bool = false) {
        self.port = port
        self.allowsAnyOrigin = allowsAnyOrigin
        self.allowsAnyHost = allowsAnyHost
    }

    /// `refusal(hosts:origins:)` is why a request with these `Host` and `Origin` values (every
    /// occurrence, in order) is refused, or `nil` when it may go on. The `Host` is checked first.
    public func refusal(hosts: [String], origins: [String]) -> Refusal? {
        if !allowsAnyHost {
            guard hosts.count == 1, let name = Self.hostName(ofAuthority: hosts[0]),
                  Self.loopbackNames.contains(name) else { return .host }
        }
        if !allowsAnyOrigin {
            guard origins.allSatisfy(isOwnOrigin) else { return .origin }
        }
        return nil
    }

    /// `isOwnOrigin(_:)` is true for `http://` and a loopback name with this policy's port
    /// (80 when none is written), as a browser serializes an origin: no path, no user.
    private func isOwnOrigin(_ origin: String) -> Bool {
        let scheme = "http://"
        guard origin.lowercased().hasPrefix(scheme) else { return false }
        let authority = String(origin.dropFirst(scheme.count))
        guard let name = Self.hostName(ofAuthority: authority), Self.loopbackNames.contains(name) else { return false }
        return (Self.port(ofAuthority: authority) ?? 80) == port
    }

    /// `hostName(ofAuthority:)` is the lowercase host of `host[:port]` or `[v6][:port]`, or `nil`
    /// when it is malformed (a bad port, a path, user information, an empty host).
    static func hostName(ofAuthority authority: String) -> String? {
        guard let split = split(authority) else { return nil }
        return split.host.lowercased()
    }

    /// `port(ofAuthority:)` is the port written in a well-formed authority, or `nil`.
    static func port(ofAuthority authority: String) -> Int? {
        split(authority)?.port
    }

    private static func split(_ authority: String) -> (host: Substring, port: Int?)? {
        let host: Substring
        let rest: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            rest = authority[authority.index(after: close)...]
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            rest = authority[colon...]
        } else {
            host = authority[...]
            rest = ""
        }
        guard !host.isEmpty, !host.contains(where: { "/?#@ \t".contains($0) }) else { return nil }
        guard !rest.isEmpty else { return (host, nil) }
        let digits = rest.dropFirst()
        guard rest.first == ":", (1...5).contains(digits.count), digits.allSatisfy(\.isASCIIDigit),
              let port = Int(digits), (1...65_535).contains(port) else { return nil }
        return (host, port)
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
