import CCurl
import Foundation

/// The options of an `EasyHandle` that say whom it trusts and how it reaches the server: TLS
/// verification and pins, the proxy, cookies and `.netrc` (engine thread, from `configure()`).
extension EasyHandle {
    /// `apply(_:)` sets the TLS options of `policy` (see `SecurityPolicy`): verification, the
    /// authorities (the pinned certificates alone in certificate mode), key pins and the
    /// client certificate.
    func apply(_ policy: SecurityPolicy) {
        set(CURLOPT_SSL_VERIFYPEER, policy.verifiesPeer ? 1 : 0)
        set(CURLOPT_SSL_VERIFYHOST, policy.verifiesPeer && policy.validatesDomainName ? 2 : 0)
        if !policy.pinnedCertificates.isEmpty {
            let bundle = Array(policy.pinnedCertificates.joined().utf8)
            _ = bundle.withUnsafeBytes { bytes in ccurl_easy_setopt_blob(raw, CURLOPT_CAINFO_BLOB, bytes.baseAddress, bytes.count) }
            _ = ccurl_easy_setopt_pointer(raw, CURLOPT_CAPATH, nil)
        } else {
            if let file = policy.certificateAuthorityFile { set(CURLOPT_CAINFO, string: file) }
            if let directory = policy.certificateAuthorityDirectory { set(CURLOPT_CAPATH, string: directory) }
        }
        if !policy.pinnedPublicKeyHashes.isEmpty {
            set(CURLOPT_PINNEDPUBLICKEY, string: policy.pinnedPublicKeyHashes.joined(separator: ";"))
        }
        if let certificate = policy.clientCertificateFile {
            set(CURLOPT_SSLCERT, string: certificate)
            set(CURLOPT_SSLKEY, string: policy.clientKeyFile ?? certificate)
        }
    }

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
        if request.usesNetrc {
            set(CURLOPT_NETRC, Int(CURL_NETRC_OPTIONAL.rawValue))
            if let file = request.netrcFile { set(CURLOPT_NETRC_FILE, string: file) }
        }
    }
}
