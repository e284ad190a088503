import CCurl
import Foundation

/// `CurlErrorMapping` converts a `CURLcode` into a ``FerryError``, once, at the boundary.
enum CurlErrorMapping {
    /// The error for `code`, given the URL being fetched, the `errno` libcurl saw and its error text.
    static func error(code: CURLcode, url: URL?, osErrno: Int, detail: String, maxRedirects: Int, lowSpeedTime: Int) -> FerryError {
        let host = url?.host ?? "the server"
        let port = url?.port ?? (url?.scheme?.lowercased() == "https" ? 443 : 80)
        let text = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .transport(.couldNotResolveHost(host))
        case CURLE_COULDNT_CONNECT:
            let reason = osErrno != 0 ? lowercasedFirst(String(cString: strerror(Int32(osErrno)))) : lowercasedFirst(text)
            return .transport(.couldNotConnect(host: host, port: port, reason: reason))
        case CURLE_OPERATION_TIMEDOUT:
            if text.localizedCaseInsensitiveContains("too slow") {
                return .transport(.stalled(seconds: lowSpeedTime))
            }
            if text.localizedCaseInsensitiveContains("connect") || text.localizedCaseInsensitiveContains("resolv") {
                return .transport(.timedOut("connecting to \(host):\(port)"))
            }
            return .transport(.timedOut(lowercasedFirst(text)))
        case CURLE_TOO_MANY_REDIRECTS:
            return .transport(.tooManyRedirects(maxRedirects))
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .transport(.disallowedProtocol(lowercasedFirst(text)))
        case CURLE_URL_MALFORMAT:
            return .input(.malformedURL(url.map { URLMasking.mask($0) } ?? "", lowercasedFirst(text)))
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_ENGINE_NOTFOUND,
             CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE,
             CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_INITFAILED:
            return .transport(.tls(lowercasedFirst(text)))
        case CURLE_RECV_ERROR where text.localizedCaseInsensitiveContains("chunk"):
            return .transport(.protocolViolation("malformed chunked encoding (\(lowercasedFirst(text)))"))
        case CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .transport(.connectionDropped(lowercasedFirst(text)))
        case CURLE_OUT_OF_MEMORY:
            // What libcurl reports for a header line over its limit (100 KB), not a real
            // shortage of memory: the same reply would come again.
            return .transport(.protocolViolation("a header is too large to read (over 100 KB)"))
        case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING:
            return .transport(.protocolViolation(lowercasedFirst(text)))
        case CURLE_PROXY:
            return .transport(.proxyRefused(lowercasedFirst(text)))
        case CURLE_RANGE_ERROR:
            return .transport(.rangeNotSupported)
        case CURLE_SEND_FAIL_REWIND:
            return .upload(.cannotRewind)
        case CURLE_READ_ERROR:
            return .upload(.readFailed(lowercasedFirst(text)))
        case CURLE_WRITE_ERROR:
            return .file(.io(path: "the output file", errno: Int32(osErrno), operation: "write"))
        default:
            return .transport(.other(code: Int(code.rawValue), message: lowercasedFirst(text)))
        }
    }

    private static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        // Keep acronyms ("SSL", "TLS") as they are.
        if text.count > 1, text[text.index(after: text.startIndex)].isUppercase { return text }
        return first.lowercased() + text.dropFirst()
    }
}
