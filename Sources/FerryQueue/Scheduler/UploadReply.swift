import FerryKit
import Foundation

/// `UploadReply` turns the server's reply to a queued upload into the short text the journal
/// keeps for the front end's detail pane: the status, then the start of the body, on one line.
///
/// Only ``bodyLimit`` bytes of a reply are ever held: the scheduler's uploads run with a
/// `ReplyTaskDelegate` keeping that many, and counting the rest.
enum UploadReply {
    /// `bodyLimit` is the most body bytes kept (cut on a character boundary).
    static let bodyLimit = 2048

    /// `summary(of:)` is the summary of an upload's result: its `data` is the kept start of
    /// the body, its `bytesReceived` the length of the whole body.
    static func summary(of result: TransferResult) -> String {
        summary(result.response, body: result.data, totalLength: result.bytesReceived)
    }

    /// `summary(_:body:totalLength:)` is `200 OK · ` then the body's text with line breaks as
    /// spaces, or its size and type when it is not UTF-8 text. `body` may be only the start of
    /// a body of `totalLength` bytes (at least `body.count`).
    static func summary(_ response: HTTPResponse, body: Data?, totalLength: Int64 = 0) -> String {
        let status = "\(response.statusCode) \(response.reasonPhrase)".trimmingCharacters(in: .whitespaces)
        guard let body, !body.isEmpty else { return status }
        let total = max(totalLength, Int64(body.count))
        let head = body.prefix(bodyLimit)
        // A cut may split the last character: drop up to three bytes to find a clean end.
        var text: String?
        for trim in 0...min(3, head.count - 1) where text == nil {
            text = String(data: head.dropLast(trim), encoding: .utf8)
        }
        guard let text else {
            let type = response.headers["Content-Type"] ?? "unknown type"
            return "\(status) · \(total) bytes of \(type)"
        }
        let more = total > Int64(text.utf8.count) ? " … (\(total) bytes in all)" : ""
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "\(status) · \(line)\(more)"
    }
}
