import CCurl
import Foundation

/// The options of an `EasyHandle` that say how it reaches the server: the proxy, cookies and
/// `.netrc` (engine thread, from `configure()`); whom it trusts is `EasyHandle+Trust.swift`.
extension EasyHandle {
    /// `applyConnection(_:)` sets the proxy (an explicit one with its own no-proxy list, else
    /// the environment's, never for loopback), the cookie engine (the engine's one store) and
    /// `.netrc` of `request`.
    func applyConnection(_ request: Request) {
        if let proxy = request.proxy {
            set(CURLOPT_PROXY, string: proxy.url)
            set(CURLOPT_NOPROXY, string: proxy.noProxy)
        } else {
            set(CURLOPT_NOPROXY, string: Self.noProxyList)
        }
        if usesCookies {
            // The engine's one cookie store: what one transfer is set, the next one sends.
            if let share = cookieShare { set(CURLOPT_SHARE, pointer: share) }
            // Each file is read; "" turns the engine on without one.
            for file in request.cookieFiles.isEmpty ? [""] : request.cookieFiles { set(CURLOPT_COOKIEFILE, string: file) }
            if let jar = request.cookieJar { set(CURLOPT_COOKIEJAR, string: jar) }
        }
        if request.usesNetrc, request.netrcFile != nil || !netrcIsMissing {
            set(CURLOPT_NETRC, Int(CURL_NETRC_OPTIONAL.rawValue))
            if let file = request.netrcFile { set(CURLOPT_NETRC_FILE, string: file) }
        }
    }
}
