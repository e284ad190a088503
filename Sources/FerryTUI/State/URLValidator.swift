/// `URLValidator` checks a URL typed into a dialog before anything is emitted.
///
/// It accepts only `http` and `https` URLs with a host, an optional numeric port and no
/// whitespace or control characters. It does not resolve or normalise anything.
public enum URLValidator {
    /// `problem(in:)` explains what is wrong with `url`, or returns `nil` when it is acceptable.
    /// Leading and trailing spaces are not the caller's concern: pass the trimmed text.
    public static func problem(in url: String) -> String? {
        if url.isEmpty { return "Enter a URL" }
        if url.unicodeScalars.contains(where: { $0.properties.isWhitespace || DisplayText.isUnsafe($0) }) {
            return "The URL must not contain spaces, tabs or line breaks"
        }
        guard let schemeEnd = url.firstRange(of: "://") else {
            return "The URL must start with http:// or https://"
        }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            return "Only http:// and https:// URLs are supported"
        }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let host: Substring
        let port: Substring?
        if hostAndPort.hasPrefix("[") {
            guard let close = hostAndPort.firstIndex(of: "]") else { return "The URL's IPv6 host lacks a closing ]" }
            host = hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close]
            let after = hostAndPort[hostAndPort.index(after: close)...]
            if after.isEmpty {
                port = nil
            } else if after.hasPrefix(":") {
                port = after.dropFirst()
            } else {
                return "The URL's host is malformed"
            }
        } else if let colon = hostAndPort.lastIndex(of: ":") {
            host = hostAndPort[..<colon]
            port = hostAndPort[hostAndPort.index(after: colon)...]
        } else {
            host = hostAndPort
            port = nil
        }
        if host.isEmpty { return "The URL has no host" }
        if let port, !port.isEmpty {
            guard port.count <= 5, port.allSatisfy(\.isASCII), let number = Int(port), (1...65535).contains(number) else {
                return "The URL's port must be a number from 1 to 65535"
            }
        }
        return nil
    }
}
