extension HTTPStatus {
    /// The lowercased description Apple's `HTTPURLResponse.localizedString(forStatusCode:)`
    /// gives for `code` (`"not found"`, `"internal server error"`), which AFNetworking puts
    /// into its messages; a code without its own text gets its class's (`"client error"`).
    ///
    /// Linux Foundation's version returns capitalized reason phrases instead, hence this table.
    public static func localizedString(forStatusCode code: Int) -> String {
        switch code {
        case 100: "continue"
        case 101: "switching protocols"
        case 200: "no error"
        case 201: "created"
        case 202: "accepted"
        case 203: "non-authoritative information"
        case 204: "no content"
        case 205: "reset content"
        case 206: "partial content"
        case 300: "multiple choices"
        case 301: "moved permanently"
        case 302: "found"
        case 303: "see other"
        case 304: "not modified"
        case 305: "needs proxy"
        case 307: "redirected"
        case 400: "bad request"
        case 401: "unauthorized"
        case 402: "payment required"
        case 403: "forbidden"
        case 404: "not found"
        case 405: "method not allowed"
        case 406: "unacceptable"
        case 407: "proxy authentication required"
        case 408: "request timed out"
        case 409: "conflict"
        case 410: "no longer exists"
        case 411: "length required"
        case 412: "precondition failed"
        case 413: "request too large"
        case 414: "requested URL too long"
        case 415: "unsupported media type"
        case 416: "requested range not satisfiable"
        case 417: "expectation failed"
        case 500: "internal server error"
        case 501: "unimplemented"
        case 502: "bad gateway"
        case 503: "service unavailable"
        case 504: "gateway timed out"
        case 505: "unsupported version"
        case 100..<200: "informational"
        case 200..<300: "success"
        case 300..<400: "redirected"
        case 400..<500: "client error"
        default: "server error"
        }
    }
}
