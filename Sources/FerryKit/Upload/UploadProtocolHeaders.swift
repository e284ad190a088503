/// `UploadProtocolHeaders` are the header fields of the two resumable-upload protocols, read
/// and written as each expects.
enum UploadProtocolHeaders {
    static let interop = "Upload-Draft-Interop-Version"
    static let offset = "Upload-Offset"
    static let complete = "Upload-Complete"
    static let incomplete = "Upload-Incomplete"
    static let tusResumable = "Tus-Resumable"
    static let tusVersion = "1.0.0"

    /// `ietf(version:complete:)` are the fields that say "this request sends the upload's
    /// bytes up to its end" (`complete`) or not, in interop `version`: `Upload-Complete`
    /// from 5 on, `Upload-Incomplete` (the inverse) in 3.
    static func ietf(version: Int, complete: Bool) -> HTTPHeaders {
        var fields = HTTPHeaders()
        fields[interop] = "\(version)"
        if version >= 5 {
            fields[self.complete] = complete ? "?1" : "?0"
        } else {
            fields[incomplete] = complete ? "?0" : "?1"
        }
        return fields
    }

    /// `offset(in:)` is `Upload-Offset` as a non-negative integer (an sf-integer), `nil` when
    /// absent or malformed.
    static func offset(in headers: HTTPHeaders) -> Int64? {
        guard let text = headers[offset]?.trimmingBlanks(), !text.isEmpty, text.count <= 19,
              text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }

    /// `isComplete(in:)` is whether the server says the upload is complete (IETF): from
    /// `Upload-Complete` or, in interop 3, `Upload-Incomplete`; `nil` when it says neither.
    static func isComplete(in headers: HTTPHeaders) -> Bool? {
        if let value = headers[complete]?.trimmingBlanks() { return value == "?1" }
        if let value = headers[incomplete]?.trimmingBlanks() { return value != "?1" }
        return nil
    }
}
