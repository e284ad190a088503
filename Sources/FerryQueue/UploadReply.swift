import FerryKit
import Foundation

/// `UploadReply` turns the server's reply to a queued upload into the short text the journal
/// keeps for the front end's detail pane: the status, then the start of the body, on one line.
enum UploadReply {
    /// `bodyLimit` is the most body bytes kept (cut on a character boundary).
    static let bodyLimit = 2048

    /// `summary(_:body:)` is `200 OK · ` then the body's text with line breaks as spaces, or its
    /// size and type when it is not UTF-8 text.
    static func summary(_ response: HTTPResponse, body: Data?) -> String {
        let status = "\(response.statusCode) \(response.reasonPhrase)".trimmingCharacters(in: .whitespaces)
        guard let body, !body.isEmpty else { return status }
        let head = body.prefix(bodyLimit)
        // A cut may split the last character: drop up to three bytes to find a clean end.
        var text: String?
        for trim in 0...min(3, head.count - 1) where text == nil {
            text = String(data: head.dropLast(trim), encoding: .utf8)
        }
        guard let text else {
            let type = response.headers["Content-Type"] ?? "unknown type"
            return "\(status) · \(body.count) bytes of \(type)"
        }
        let more = body.count > text.utf8.count ? " … (\(body.count) bytes in all)" : ""
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "\(status) · \(line)\(more)"
    }
}
