import Foundation

/// `URLMasking` hides secrets in URLs before they are shown or logged.
///
/// The password of the user info becomes `***`, and so do the values of query parameters
/// whose names say they are secrets (`token`, `access_token`, `api_key`, `password`, ...).
public enum URLMasking {
    /// Query parameter names whose values are masked (compared lowercased).
    public static let secretQueryNames: Set<String> = [
        "token", "access_token", "refresh_token", "id_token", "auth", "apikey", "api_key", "key",
        "password", "passwd", "pass", "secret", "client_secret", "signature", "sig", "x-amz-signature",
        "x-amz-credential", "x-amz-security-token",
    ]

    /// The URL text with secrets replaced by `***`.
    public static func mask(_ url: URL) -> String {
        mask(url.absoluteString)
    }

    /// The URL text with secrets replaced by `***`; works on text that does not parse too.
    public static func mask(_ text: String) -> String {
        var result = text
        // User info: scheme://user:password@host -> scheme://user:***@host
        if let schemeEnd = result.range(of: "://") {
            let authorityStart = schemeEnd.upperBound
            let authorityEnd = result[authorityStart...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? result.endIndex
            let authority = result[authorityStart..<authorityEnd]
            if let at = authority.lastIndex(of: "@") {
                let userInfo = authority[..<at]
                let maskedInfo: String
                if let colon = userInfo.firstIndex(of: ":") {
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
