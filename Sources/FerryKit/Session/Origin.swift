import Foundation

/// `Origin` is the scheme, host and port of a URL: what secrets are given for.
///
/// Authorization, cookies, URL credentials and every secret header (``HTTPHeaders/isSecret(_:)``)
/// are sent only to the origin they were given for: on the first request, after a redirect,
/// on a retry and on a resume at the URL that served the bytes. The host is compared in lower
/// case, the scheme's default port filled in (``HostKey``).
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    /// `scheme` in lower case (`http` or `https`).
    public let scheme: String
    /// `host:port`, as ``HostKey`` makes it.
    public let hostKey: String

    /// The origin of `url`; `nil` when it has no scheme or host.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else { return nil }
        self.scheme = scheme
        hostKey = HostKey.of(url.absoluteString)
    }

    public var description: String { "\(scheme)://\(hostKey)" }
}
