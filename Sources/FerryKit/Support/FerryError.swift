import Foundation

/// `FerryError` is the one error type of FerryKit, with a nested reason per area.
///
/// C return codes (`CURLcode`, `errno`) are converted into it once, at the boundary.
/// Its `description` is a message a user understands; secrets never appear in it.
public enum FerryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The user's input is wrong: a URL, a header, an option. Nothing was sent.
    case input(InputReason)
    /// The network transfer failed: connection, DNS, TLS, timeouts, redirects.
    case transport(TransportReason)
    /// The server answered, but the response was not acceptable.
    case validation(ValidationReason)
    /// A local file could not be read or written.
    case file(FileReason)
    /// The bytes are not the expected ones: length, checksum, resume validators.
    case integrity(IntegrityReason)
    /// A request or response body could not be encoded or decoded.
    case serialization(SerializationReason)
    /// An upload body could not be produced.
    case upload(UploadReason)
    /// The task was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .input(let reason): reason.description
        case .transport(let reason): reason.description
        case .validation(let reason): reason.description
        case .file(let reason): reason.description
        case .integrity(let reason): reason.description
        case .serialization(let reason): reason.description
        case .upload(let reason): reason.description
        case .cancelled: "cancelled"
        }
    }

    /// Whether trying again could succeed (transport errors; 408, 429 and 5xx replies).
    public var isTransient: Bool {
        switch self {
        case .transport(let reason): reason.isTransient
        case .validation(.unacceptableStatus(let status, _, _, _)): status == 408 || status == 429 || (500...599).contains(status)
        case .integrity(.truncated): true
        default: false
        }
    }
}

/// `InputReason` says which input was wrong.
public enum InputReason: Sendable, Equatable, CustomStringConvertible {
    case malformedURL(String, String)
    case unsupportedScheme(String)
    case invalidHeader(String)
    case invalidOption(String)
    case missingFile(String)

    public var description: String {
        switch self {
        case .malformedURL(let url, let why): "malformed URL \"\(url)\": \(why)"
        case .unsupportedScheme(let scheme): "unsupported URL scheme \"\(scheme)\": only http and https are allowed"
        case .invalidHeader(let why): "invalid header: \(why)"
        case .invalidOption(let why): why
        case .missingFile(let path): "no such file: \(path)"
        }
    }
}

/// `TransportReason` says why the network transfer failed.
public enum TransportReason: Sendable, Equatable, CustomStringConvertible {
    case couldNotResolveHost(String)
    case couldNotConnect(host: String, port: Int, reason: String)
    case timedOut(String)
    case stalled(seconds: Int)
    /// The transfer took longer than the request's ``Request/maximumTime`` (curl's `--max-time`).
    case gaveUp(seconds: Double)
    case tls(String)
    case tooManyRedirects(Int)
    case disallowedProtocol(String)
    case connectionDropped(String)
    case rangeNotSupported
    /// The server broke HTTP (a header too long, malformed chunked encoding, a reply that is
    /// not HTTP): trying again would meet the same reply.
    case protocolViolation(String)
    /// The proxy refused the request (a SOCKS handshake failed, its login was rejected): the
    /// same request would be refused again.
    case proxyRefused(String)
    case other(code: Int, message: String)

    public var description: String {
        switch self {
        case .couldNotResolveHost(let host): "could not resolve host \(host)"
        case .couldNotConnect(let host, let port, let reason): "could not connect to \(host):\(port): \(reason)"
        case .timedOut(let what): "timed out: \(what)"
        case .stalled(let seconds): "transfer stalled: no data for \(seconds) s"
        case .gaveUp(let seconds):
            "gave up after \(seconds.rounded() == seconds && seconds < 1e15 ? String(Int(seconds)) : String(seconds)) s (--max-time)"
        case .tls(let detail): "TLS error: \(detail)"
        case .tooManyRedirects(let count): "too many redirects (more than \(count))"
        case .disallowedProtocol(let detail): "redirect to a disallowed protocol: \(detail) (only http and https are allowed)"
        case .connectionDropped(let detail): "connection dropped: \(detail)"
        case .rangeNotSupported: "the server does not support byte ranges"
        case .protocolViolation(let detail): "the server's reply is not valid HTTP: \(detail)"
        case .proxyRefused(let detail): "the proxy refused the request: \(detail) (check --proxy and its login)"
        case .other(let code, let message): "\(message) (curl error \(code))"
        }
    }

    var isTransient: Bool {
        switch self {
        case .couldNotConnect, .timedOut, .stalled, .connectionDropped, .other: true
        case .couldNotResolveHost, .gaveUp, .tls, .tooManyRedirects, .disallowedProtocol, .rangeNotSupported, .protocolViolation, .proxyRefused: false
        }
    }
}

/// `ValidationReason` says why a response was not acceptable.
public enum ValidationReason: Sendable, Equatable, CustomStringConvertible {
    /// The status code is not acceptable: status, reason phrase, URL (masked) and up to 64 KiB of body.
    case unacceptableStatus(Int, reason: String, url: String, body: Data?)
    /// The Content-Type is not acceptable.
    case unacceptableContentType(String, acceptable: [String], url: String)
    /// The response has no Content-Type but one was required.
    case missingContentType(acceptable: [String], url: String)

    public var description: String {
        switch self {
        case .unacceptableStatus(407, let reason, _, _):
            "the proxy answered 407 \(reason): give its login in the proxy's URL (http://USER:PASSWORD@HOST:PORT)"
        case .unacceptableStatus(let status, let reason, _, _): "server answered \(status) \(reason)"
        case .unacceptableContentType(let type, _, _): "unacceptable content-type: \(type)"
        case .missingContentType: "the response has no content-type"
        }
    }
}

/// `FileReason` says what went wrong with a local file.
public enum FileReason: Sendable, Equatable, CustomStringConvertible {
    case diskFull(String)
    case permissionDenied(String)
    case notFound(String)
    case notADirectory(String)
    case alreadyExists(String)
    case io(path: String, errno: Int32, operation: String)

    public var description: String {
        switch self {
        case .diskFull(let path): "disk full while writing \(path)"
        case .permissionDenied(let path): "permission denied: \(path)"
        case .notFound(let path): "no such file or directory: \(path)"
        case .notADirectory(let path): "not a directory: \(path)"
        case .alreadyExists(let path): "already exists: \(path)"
        case .io(let path, let code, let operation): "could not \(operation) \(path): \(String(cString: strerror(code)))"
        }
    }

    /// Converts an `errno` from an operation on `path` into a reason.
    public static func from(errno code: Int32, path: String, operation: String) -> FileReason {
        switch code {
        case ENOSPC, EDQUOT: .diskFull(path)
        case EACCES, EPERM, EROFS: .permissionDenied(path)
        case ENOENT: .notFound(path)
        case ENOTDIR: .notADirectory(path)
        case EEXIST: .alreadyExists(path)
        default: .io(path: path, errno: code, operation: operation)
        }
    }
}

/// `IntegrityReason` says why the bytes cannot be trusted.
public enum IntegrityReason: Sendable, Equatable, CustomStringConvertible {
    case checksumMismatch(algorithm: String, expected: String, actual: String)
    case lengthMismatch(expected: Int64, actual: Int64)
    case truncated(expected: Int64, received: Int64)
    case resumeRejected(String)
    /// A Content-Length or Content-Range header that is not a valid length.
    case invalidLength(String)
    /// A 206 that answers another question than the one asked (a range nobody asked for).
    case unexpectedRange(String)
    /// The file on the server is not the one the partial file holds the start of (its
    /// validators or length differ): the download starts over from zero.
    case changedOnServer(String)

    public var description: String {
        switch self {
        case .checksumMismatch(let algorithm, let expected, let actual):
            "checksum mismatch (\(algorithm)): expected \(expected), got \(actual)"
        case .lengthMismatch(let expected, let actual): "length mismatch: expected \(expected) bytes, got \(actual)"
        case .truncated(let expected, let received): "transfer truncated: received \(received) of \(expected) bytes"
        case .resumeRejected(let why): "resume rejected: \(why)"
        case .invalidLength(let header): "the server sent an invalid length: \(header)"
        case .unexpectedRange(let why): "the server sent a range that was not asked for: \(why)"
        case .changedOnServer(let why): "the file changed on the server (\(why)); starting over"
        }
    }
}

/// `SerializationReason` says why a body could not be encoded or decoded.
public enum SerializationReason: Sendable, Equatable, CustomStringConvertible {
    case invalidJSON(String)
    case invalidPropertyList(String)
    case invalidXML(String)
    /// A Metalink that cannot be used: not one, too large, or hostile (a name outside the directory).
    case invalidMetalink(String)
    case invalidImage(String)
    case encodingFailed(String)
    case noSerializerSucceeded([String])

    public var description: String {
        switch self {
        case .invalidJSON(let why): "invalid JSON: \(why)"
        case .invalidPropertyList(let why): "invalid property list: \(why)"
        case .invalidXML(let why): "invalid XML: \(why)"
        case .invalidMetalink(let why): "unusable Metalink: \(why)"
        case .invalidImage(let why): "invalid image: \(why)"
        case .encodingFailed(let why): "could not encode the body: \(why)"
        case .noSerializerSucceeded(let reasons): "no response serializer accepted the reply: \(reasons.joined(separator: "; "))"
        }
    }
}

/// `UploadReason` says why an upload body could not be produced.
public enum UploadReason: Sendable, Equatable, CustomStringConvertible {
    /// The file's size changed while it was being sent.
    case fileChanged(path: String, expected: Int64, actual: Int64)
    /// Reading the body failed.
    case readFailed(String)
    /// The body cannot be rewound for a redirect or authentication replay.
    case cannotRewind
    /// The server broke the resumable-upload protocol, or refused to make or go on with the upload.
    case resumption(String)

    public var description: String {
        switch self {
        case .fileChanged(let path, let expected, let actual):
            "\(path) changed size during the upload (expected \(expected) bytes, now \(actual)); nothing truncated or padded was sent"
        case .readFailed(let why): "could not read the upload body: \(why)"
        case .cannotRewind: "the upload body cannot be sent again (rewind failed)"
        case .resumption(let why): "resumable upload: \(why)"
        }
    }
}
