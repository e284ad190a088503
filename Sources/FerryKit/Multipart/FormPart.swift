import Foundation

/// `FormPart` describes one part of a multipart form: its header fields and where its body comes from.
///
/// A part is a value that can be copied and shared between threads; reading it is the job of
/// ``BodyPart``, which opens the body anew for every body stream (so a file is re-opened for
/// every attempt of an upload). Parts are made by the `append` methods of ``MultipartFormData``.
public struct FormPart: Sendable {
    /// `headers` are the header fields in the order they are sent: `Content-Disposition`, `Content-Type`, then the rest as given.
    public let headers: HTTPHeaders
    /// `body` is where the body comes from: bytes in memory, a file, or a stream factory.
    public let body: RequestBody
    /// `bodyLength` is the exact length of the body in bytes, fixed when the part is appended.
    public let bodyLength: Int64
    /// `headerBlock` is the encoded header block: each field as `Name: value` CRLF, then an empty line (CRLF).
    let headerBlock: [UInt8]

    /// `init(headers:body:bodyLength:)` creates a part after checking its header fields (HTTP tokens as names, no CR, LF or NUL in values).
    ///
    /// `Content-Disposition` is moved first and `Content-Type` second; the other fields keep their order.
    init(headers: HTTPHeaders, body: RequestBody, bodyLength: Int64) throws(FerryError) {
        guard bodyLength >= 0 else {
            throw .input(.invalidOption("a multipart part cannot have a negative length (\(bodyLength))"))
        }
        for field in headers {
            try HTTPHeaders.validate(name: field.name, value: field.value)
        }
        let ranked = headers.fields.enumerated().sorted { lhs, rhs in
            (Self.rank(of: lhs.element.name), lhs.offset) < (Self.rank(of: rhs.element.name), rhs.offset)
        }
        let ordered = HTTPHeaders(ranked.map(\.element))
        var block: [UInt8] = []
        for field in ordered {
            block.append(contentsOf: field.name.utf8)
            block.append(contentsOf: ": ".utf8)
            block.append(contentsOf: field.value.utf8)
            block.append(contentsOf: "\r\n".utf8)
        }
        block.append(contentsOf: "\r\n".utf8)
        self.headers = ordered
        self.body = body
        self.bodyLength = bodyLength
        self.headerBlock = block
    }

    /// `file(at:headers:)` creates a part whose body is the file at `url`, after checking that it is a readable regular file.
    static func file(at url: URL, headers: HTTPHeaders) throws(FerryError) -> FormPart {
        let size = try regularFileSize(at: url)
        return try FormPart(headers: headers, body: .file(url), bodyLength: size)
    }

    /// `filePath` is the path of the body's file, `nil` unless the body is a file.
    var filePath: String? {
        if case .file(let url) = body { return url.path }
        return nil
    }

    /// `contentDisposition(name:fileName:)` builds a `Content-Disposition` value: `form-data; name="NAME"` and, when given, `; filename="FILENAME"`.
    ///
    /// `"`, CR and LF in the name and file name become `%22`, `%0D` and `%0A` (the WHATWG rule
    /// browsers follow); every other character, non-ASCII included, is sent as its UTF-8 bytes.
    static func contentDisposition(name: String, fileName: String?) -> String {
        var value = "form-data; name=\"\(escapeQuotedParameter(name))\""
        if let fileName {
            value += "; filename=\"\(escapeQuotedParameter(fileName))\""
        }
        return value
    }

    /// `escapeQuotedParameter(_:)` escapes `"`, CR and LF as `%22`, `%0D` and `%0A` (scalar by scalar, so CRLF is two escapes).
    static func escapeQuotedParameter(_ text: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped.append(contentsOf: "%22".unicodeScalars)
            case "\r": escaped.append(contentsOf: "%0D".unicodeScalars)
            case "\n": escaped.append(contentsOf: "%0A".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// `regularFileSize(at:)` checks that `url` names a regular file this process can open for reading, and returns its size.
    ///
    /// A missing file is ``InputReason/missingFile(_:)``; a directory or other non-regular file is
    /// ``InputReason/invalidOption(_:)``; other `open` failures (permissions) are ``FileReason``s.
    /// The file is opened non-blocking, so a FIFO cannot hang the check, and closed again.
    static func regularFileSize(at url: URL) throws(FerryError) -> Int64 {
        guard url.isFileURL else { throw .input(.invalidOption("\(url.absoluteString) is not a file URL")) }
        let path = url.path
        let descriptor = SystemCall.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { throw .input(.missingFile(path)) }
            throw .file(.from(errno: code, path: path, operation: "open"))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .file(.from(errno: errno, path: path, operation: "stat")) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return Int64(info.st_size)
        case S_IFDIR: throw .input(.invalidOption("\(path) is a directory, not a file"))
        default: throw .input(.invalidOption("\(path) is not a regular file (its size is not known in advance)"))
        }
    }

    private static func rank(of name: String) -> Int {
        if name.caseInsensitiveEquals("Content-Disposition") { return 0 }
        if name.caseInsensitiveEquals("Content-Type") { return 1 }
        return 2
    }
}
