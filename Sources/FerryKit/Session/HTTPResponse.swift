import Foundation

/// `HTTPResponse` is the status line and headers of the final response (after redirects).
public struct HTTPResponse: Sendable, Equatable {
    /// The URL that answered, after redirects.
    public var url: URL
    /// The status code, for example `200`.
    public var statusCode: Int
    /// The reason phrase sent by the server, or the standard one when it sent none.
    public var reasonPhrase: String
    /// The header fields, in the order received.
    public var headers: HTTPHeaders
    /// The protocol version, for example `HTTP/1.1`.
    public var httpVersion: String

    public init(url: URL, statusCode: Int, reasonPhrase: String? = nil, headers: HTTPHeaders = [:], httpVersion: String = "HTTP/1.1") {
        self.url = url
        self.statusCode = statusCode
        let phrase = reasonPhrase?.trimmingBlanks() ?? ""
        self.reasonPhrase = phrase.isEmpty ? HTTPStatus.standardReason(statusCode) : phrase
        self.headers = headers
        self.httpVersion = httpVersion
    }

    /// The media type of Content-Type without parameters, lowercased (`text/html`), or `nil`.
    public var mimeType: String? {
        guard let type = headers["Content-Type"] else { return nil }
        let bare = type.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return (bare?.isEmpty ?? true) ? nil : bare
    }

    /// The `charset` parameter of Content-Type, lowercased, or `nil`.
    public var textEncodingName: String? {
        guard let type = headers["Content-Type"] else { return nil }
        for parameter in type.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "charset" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
            }
        }
        return nil
    }

    /// Content-Length when present and sane (decimal digits, blanks around them allowed, a
    /// value that fits in `Int64`), otherwise `nil`.
    public var expectedContentLength: Int64? {
        headers["Content-Length"].flatMap(HTTPResponse.decimalLength)
    }

    /// `decimalLength(_:)` reads `text` as a length: ASCII digits with optional blanks (SP,
    /// HTAB) around them, no sign, at most `Int64.max`. On the bytes: it runs for every response.
    static func decimalLength(_ text: String) -> Int64? {
        var value: Int64 = 0
        var digits = 0
        var ended = false
        for byte in text.utf8 {
            if byte == 0x20 || byte == 0x09 {
                ended = digits > 0
                continue
            }
            guard !ended, byte >= 0x30, byte <= 0x39 else { return nil }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int64(byte - 0x30))
            guard !overflowTimes, !overflowSum else { return nil }
            value = sum
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// Whether the status is in 200-299.
    public var isSuccess: Bool { (200..<300).contains(statusCode) }
}

/// `HTTPStatus` holds the standard reason phrases.
public enum HTTPStatus {
    /// The standard reason phrase for `code`, or `"HTTP <code>"` when unknown.
    public static func standardReason(_ code: Int) -> String {
        switch code {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "HTTP \(code)"
        }
    }
}
