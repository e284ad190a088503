import Foundation

/// `URLMasking` is Ferry's one rule for hiding secrets before anything is shown or logged:
/// in URLs and in header fields. Every output (`ferry get`, `put`, `add`, `list`, the UI,
/// error messages) masks through it.
///
/// In a URL the password of the user info becomes `***` (with `hidingUser`, the whole user
/// info), and so do the values of query parameters whose names say they are secrets
/// (`token`, `access_token`, `sig`, `password`, ...). A header is secret when its name is
/// one of ``secretHeaderNames`` or contains one of ``secretHeaderNameFragments``.
package enum URLMasking {
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
    ///
    /// Text with no `@` and no query parameter that may be named as a secret is returned as it
    /// is, found on its bytes: lists of a thousand URLs are masked for every RPC poll, and the
    /// full rule (Foundation's searches, a new string) cost more than the rest of the list.
    public static func mask(_ text: String, hidingUser: Bool = false) -> String {
        let hasAt = text.utf8.contains(UInt8(ascii: "@"))
        guard hasAt || mayHaveSecretQueryName(text) else { return text }
        var result = text
        // User info: scheme://user:password@host -> scheme://user:***@host
        if hasAt, let schemeEnd = result.range(of: "://") {
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

    /// `mayHaveSecretQueryName(_:)` is false when `text` has no query (`?` up to `#`) or none
    /// of its parameter names is one of ``secretQueryNames`` when lowercased. Any `%` in a name
    /// or byte beyond ASCII in the query counts as possibly secret (decoded, a name might be
    /// one; a combining mark joins the character before it, which then separates nothing):
    /// the full rule decides.
    private static func mayHaveSecretQueryName(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let question = bytes.firstIndex(of: UInt8(ascii: "?")) else { return false }
        var index = bytes.index(after: question)
        var nameStart: String.UTF8View.Index? = index  // `nil` in a value
        while index != bytes.endIndex {
            let byte = bytes[index]
            let next = bytes.index(after: index)
            switch byte {
            case 0x80...:
                return true
            case UInt8(ascii: "#"):
                return next != bytes.endIndex && bytes[next] >= 0x80
            case UInt8(ascii: "&"):
                nameStart = next
            case UInt8(ascii: "="):
                if let start = nameStart {
                    let name = bytes[start..<index]
                    if name.count <= longestSecretQueryName,
                       secretQueryNames.contains(String(decoding: name, as: UTF8.self).lowercased()) {
                        return true
                    }
                    nameStart = nil
                }
            case UInt8(ascii: "%") where nameStart != nil:
                return true
            default:
                break
            }
            index = next
        }
        return false
    }

    private static let longestSecretQueryName = secretQueryNames.map(\.utf8.count).max() ?? 0
}
