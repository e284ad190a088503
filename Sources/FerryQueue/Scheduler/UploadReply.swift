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

    /// `excerptLimit` is the most characters of a rejected reply's body a failure message carries.
    static let excerptLimit = 200

    /// `rejection(_:of:)` is the message of an upload the server rejected: `error`'s (the
    /// status), then the start of the body as one line (``excerpt(_:limit:)``), as `ferry put`
    /// shows it: `server answered 403 Forbidden: quota exceeded`.
    static func rejection(_ error: FerryError, of result: TransferResult) -> String {
        guard let body = result.data, !body.isEmpty else { return error.description }
        let head = body.prefix(bodyLimit)
        guard let text = text(of: head) else {
            let type = result.response.headers["Content-Type"] ?? "unknown type"
            return "\(error.description): \(max(result.bytesReceived, Int64(body.count))) bytes of \(type)"
        }
        let line = excerpt(text)
        return line.isEmpty ? error.description : "\(error.description): \(line)"
    }

    /// `excerpt(_:limit:)` is the start of `text` as one line of at most `limit` characters
    /// (then `…`): runs of white space, line breaks included, become one space; other control,
    /// format and separator characters are escaped as `\u{1b}`, so the line cannot move a
    /// terminal's cursor or reorder what follows.
    static func excerpt(_ text: String, limit: Int = excerptLimit) -> String {
        var line = ""
        var count = 0
        var pendingSpace = false
        for character in text {
            if character.isWhitespace {
                pendingSpace = count > 0
                continue
            }
            var piece = ""
            for scalar in character.unicodeScalars {
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator:
                    piece += "\\u{\(String(scalar.value, radix: 16))}"
                default:
                    piece.unicodeScalars.append(scalar)
                }
            }
            let length = (pendingSpace ? 1 : 0) + piece.count
            guard count + length <= limit else { return line + "…" }
            if pendingSpace { line += " " }
            line += piece
            count += length
            pendingSpace = false
        }
        return line
    }

    /// `text(of:)` is `data` as UTF-8 text, a character cut at its end dropped; `nil` when it
    /// is not UTF-8.
    private static func text(of data: Data) -> String? {
        guard !data.isEmpty else { return nil }
        for trim in 0...min(3, data.count - 1) {
            if let text = String(data: data.dropLast(trim), encoding: .utf8) { return text }
        }
        return nil
    }

    /// `summary(_:body:totalLength:)` is `200 OK · ` then the body's text with line breaks as
    /// spaces, or its size and type when it is not UTF-8 text. `body` may be only the start of
    /// a body of `totalLength` bytes (at least `body.count`).
    static func summary(_ response: HTTPResponse, body: Data?, totalLength: Int64 = 0) -> String {
        let status = "\(response.statusCode) \(response.reasonPhrase)".trimmingCharacters(in: .whitespaces)
        guard let body, !body.isEmpty else { return status }
        let total = max(totalLength, Int64(body.count))
        let head = body.prefix(bodyLimit)
        guard let text = text(of: head) else {
            let type = response.headers["Content-Type"] ?? "unknown type"
            return "\(status) · \(total) bytes of \(type)"
        }
        let more = total > Int64(text.utf8.count) ? " … (\(total) bytes in all)" : ""
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "\(status) · \(line)\(more)"
    }
}
