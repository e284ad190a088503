/// `RPCEndpoint` is one address the daemon listens on.
public struct RPCEndpoint: Sendable, CustomStringConvertible {
    /// `Address` is a Unix socket path or a TCP host and port.
    public enum Address: Sendable {
        case unixSocket(path: String)
        case tcp(host: String, port: Int)
    }

    /// `address` is where to listen.
    public let address: Address
    /// `required` is false for an address the daemon may do without (IPv6 loopback on a
    /// machine without IPv6): failing to listen there is reported, not fatal.
    public let required: Bool

    /// `init(_:required:)` makes an endpoint; required by default.
    public init(_ address: Address, required: Bool = true) {
        self.address = address
        self.required = required
    }

    /// `origin` is how requests from this endpoint are trusted.
    public var origin: RPCOrigin {
        if case .unixSocket = address { return .local }
        return .network
    }

    /// `description` is the address as people write it (`/path/control.sock`,
    /// `127.0.0.1:6800`, `[::1]:6800`).
    public var description: String {
        switch address {
        case .unixSocket(let path): return path
        case .tcp(let host, let port): return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }
}
