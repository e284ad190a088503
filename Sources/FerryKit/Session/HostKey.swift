/// `HostKey` names the server a URL points at, `host:port` with the host in lower case and the
/// scheme's default port filled in, so that the per-host limits of a session and of a queue
/// count the same transfers together. Read off the text without a URL parser (it runs for
/// every transfer started).
public enum HostKey {
    /// `of(_:)` is the key of `url` (its own text when it has no `scheme://`).
    public static func of(_ url: String) -> String {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return url }
        let scheme = url[..<colon].lowercased()
        var authority = url[url.index(colon, offsetBy: 3)...]
        if let end = authority.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            authority = authority[..<end]
        }
        if let at = authority.lastIndex(of: "@") {
            authority = authority[authority.index(after: at)...]
        }
        var host = authority
        var port: Int?
        // The last colon separates the port unless it is inside an IPv6 literal ("[::1]").
        if let portColon = authority.lastIndex(of: ":"), !authority[portColon...].contains("]") {
            host = authority[..<portColon]
            port = Int(authority[authority.index(after: portColon)...])
        }
        return "\(host.lowercased()):\(port ?? (scheme == "https" ? 443 : 80))"
    }
}
