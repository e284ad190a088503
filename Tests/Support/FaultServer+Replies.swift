import Foundation

/// `LoggedRequest` is one request as the fault server's `/_log` reports it.
public struct LoggedRequest: Decodable, Sendable {
    /// `seq` numbers requests in arrival order, from 1.
    public let seq: Int
    /// `method` is the request method.
    public let method: String
    /// `path` is the request target: path and query as sent.
    public let path: String
    /// `headers` are the header fields in arrival order.
    public let headers: [HeaderField]
    /// `bodyRead` is how many request body bytes the server read.
    public let bodyRead: Int
    /// `bodyComplete` is `true` when the server read the whole request body.
    public let bodyComplete: Bool
    /// `clientPort` is the client's TCP port: the requests of one connection share it.
    public let clientPort: Int

    enum CodingKeys: String, CodingKey {
        case seq, method, path, headers
        case bodyRead = "body_read"
        case bodyComplete = "body_complete"
        case clientPort = "client_port"
    }

    /// `header(_:)` is the first value of the named header (case-insensitive), or `nil`.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// `HeaderField` is one header line: the name as sent and the value. It decodes from the
/// fault server's `[name, value]` pairs.
public struct HeaderField: Decodable, Sendable, Equatable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    public init(from decoder: any Decoder) throws {
        var pair = try decoder.unkeyedContainer()
        name = try pair.decode(String.self)
        value = try pair.decode(String.self)
    }
}

/// `EchoReply` is the fault server's `/echo` answer.
public struct EchoReply: Decodable, Sendable {
    public let method: String
    public let path: String
    /// `query` is the raw query string, without `?`.
    public let query: String
    public let httpVersion: String
    public let headers: [HeaderField]
    public let bodyLength: Int
    public let bodySHA256: String
    /// `body` is the body as text when it is at most 64 KiB of valid UTF-8, else `nil`.
    public let body: String?

    enum CodingKeys: String, CodingKey {
        case method, path, query, headers, body
        case httpVersion = "http_version"
        case bodyLength = "body_length"
        case bodySHA256 = "body_sha256"
    }

    /// `header(_:)` is the first value of the named header (case-insensitive), or `nil`.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// `SinkReply` is the fault server's `/sink` answer: the length and SHA-256 of the body.
public struct SinkReply: Decodable, Sendable, Equatable {
    public let length: Int
    public let sha256: String

    public init(length: Int, sha256: String) {
        self.length = length
        self.sha256 = sha256
    }
}

/// `MultipartReply` is the fault server's `/multipart` answer, from Python's email parser.
public struct MultipartReply: Decodable, Sendable {
    /// `File` is one part that had a `filename` parameter.
    public struct File: Decodable, Sendable, Equatable {
        public let name: String
        public let filename: String
        /// `contentType` is the part's Content-Type header, or `nil` when it had none.
        public let contentType: String?
        public let length: Int
        public let sha256: String

        public init(name: String, filename: String, contentType: String?, length: Int, sha256: String) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.length = length
            self.sha256 = sha256
        }

        enum CodingKeys: String, CodingKey {
            case name, filename, length, sha256
            case contentType = "content_type"
        }
    }

    /// `fields` maps each non-file part's name to its value (the last one wins).
    public let fields: [String: String]
    /// `fieldList` is every non-file part as `[name, value]`, in order.
    public let fieldList: [[String]]
    public let files: [File]
    /// `parts` counts all parts.
    public let parts: Int
    public let boundary: String

    enum CodingKeys: String, CodingKey {
        case fields, files, parts, boundary
        case fieldList = "field_list"
    }
}
