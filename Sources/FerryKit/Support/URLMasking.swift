import Foundation

/// `URLMasking` is Ferry's one rule for hiding secrets before anything is shown or logged:
/// in URLs and in header fields. Every output (`ferry get`, `put`, `add`, `list`, the UI,
/// error messages) masks through it.
///
/// In a URL the password of the user info becomes `***` (with `hidingUser`, the whole user
/// info), and so do the values of query parameters whose names say they are secrets
/// (`token`, `access_token`, `sig`, `password`, ...). A header is secret when its name is
/// one of ``secretHeaderNames`` or contains one of ``secretHeaderNameFragments``.
public enum URLMasking {
    /// Query parameter names whose values are masked (compared lowercased, after percent-decoding).
    public static let secretQueryNames: Set<String> = [
        "token", "access_token", "refresh_token", "id_token", "auth", "apikey", "api_key", "key",
        "password", "passwd", "pass", "secret", "client_secret", "signature", "sig", "x-amz-signature",
        "x-amz-credential", "x-amz-security-token",
    ]

    /// Header names whose values are secrets, lowercased: credentials and session state.
    public static let secretHeaderNames: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Fragments that make any header whose lowercased name contains one a secret
    /// (`X-Auth-Token`, `X-Api-Key`, `X-Session-Id`...): over-masking is cheap, a leak is not.
    public static let secretHeaderNameFragments = ["auth", "token", "secret", "password", "passwd",
                                                   "api-key", "apikey", "session", "cookie"]

    /// Whether a header called `name` carries a secret (its value is never shown).
    public static func isSecretHeader(_ name: String) -> Bool {
        let lower = name.lowercased()
        return secretHeaderNames.contains(lower) || secretHeaderNameFragments.contains(where: { lower.contains($0) })
    }

    /// The URL text with secrets replaced by `***`.
    public static func mask(_ url: URL, hidingUser: Bool = false) -> String {
        mask(url.absoluteString, hidingUser: hidingUser)
    }

    /// The URL text with secrets replaced by `***`; works on text that does not parse too.
    /// `hidingUser` masks the user name as well as the password (`***@host`); `false` by default.
    public static func mask(_ text: String, hidingUser: Bool = false) -> String {
        var result = text
        // User info: scheme://user:password@host -> scheme://user:***@host
        if let schemeEnd = result.range(of: "://") {
            let authorityStart = schemeEnd.upperBound
            let authorityEnd = result[authorityStart...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? result.endIndex
            let authority = result[authorityStart..<authorityEnd]
            if let at = authority.lastIndex(of: "@") {
                let userInfo = authority[..<at]
                let maskedInfo: String
                if !hidingUser, let colon = userInfo.firstIndex(of: ":") {
                    maskedInfo = String(userInfo[..<colon]) + ":***"
                } else {
                    maskedInfo = "***"
                }
                result.replaceSubrange(authorityStart..<at, with: maskedInfo)
            }
        }
        // Query parameters with secret names.
        guard let question = result.firstIndex(of: "?") else { return result }
        let fragmentStart = result[question...].firstIndex(of: "#") ?? result.endIndex
        let query = result[result.index(after: question)..<fragmentStart]
        let maskedQuery = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals].removingPercentEncoding?.lowercased() ?? pair[..<equals].lowercased()
            return secretQueryNames.contains(name) ? String(pair[...equals]) + "***" : String(pair)
        }.joined(separator: "&")
        result.replaceSubrange(result.index(after: question)..<fragmentStart, with: maskedQuery)
        return result
    }
}
