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

    /// `TusChecksum` is the algorithm of the tus checksum extension an upload's appends carry,
    /// with the name the server gave it.
    struct TusChecksum: Sendable, Equatable {
        let name: String
        let algorithm: ExpectedChecksum.Algorithm
    }

    /// `tusChecksum(in:)` is the best algorithm an `OPTIONS` answer offers for the checksum
    /// extension (`Tus-Extension: checksum` and `Tus-Checksum-Algorithm`), `nil` when none
    /// that libcrypto computes is offered.
    static func tusChecksum(in headers: HTTPHeaders) -> TusChecksum? {
        let extensions = (headers["Tus-Extension"] ?? "").split(separator: ",").map { String($0).trimmingBlanks().lowercased() }
        guard extensions.contains("checksum") else { return nil }
        let offered = (headers["Tus-Checksum-Algorithm"] ?? "").split(separator: ",").map { String($0).trimmingBlanks() }
        let known: [(String, ExpectedChecksum.Algorithm)] = [("sha256", .sha256), ("sha-256", .sha256), ("sha512", .sha512),
                                                             ("sha-512", .sha512), ("sha1", .sha1), ("sha-1", .sha1), ("md5", .md5)]
        for (spelling, algorithm) in known {
            if let name = offered.first(where: { $0.lowercased() == spelling }) { return TusChecksum(name: name, algorithm: algorithm) }
        }
        return nil
    }
}
