import Foundation

/// `MultipartFormData` builds a `multipart/form-data` body from parts: files, streams, data and fields.
///
/// It is a value describing the body, not the bytes: files are checked when appended (missing,
/// unreadable or not a regular file is an error right away, before anything is sent), and read
/// only when a body stream produced by ``makeBodyStream()`` reaches them, re-opened for every
/// stream, so an upload can be replayed after a redirect or sent again on retry. The value is
/// `Sendable`, so it can be captured by the `@Sendable` factory of ``RequestBody/stream(_:)``
/// (see ``requestBody``).
///
/// Every part has a `Content-Disposition` header; field names and file names have `"`, CR and
/// LF escaped as `%22`, `%0D` and `%0A`, and other characters, non-ASCII included, are sent as
/// UTF-8. The boundary is `Boundary+` and 16 random upper-case hex digits, as AFNetworking's;
/// like AFNetworking, the body is not searched for it (a collision is a 2^-64 chance per part).
public struct MultipartFormData: Sendable {
    /// `boundary` separates the parts, without the leading `--`.
    public let boundary: String
    /// `parts` are the parts in the order they are sent.
    public private(set) var parts: [FormPart] = []
    /// `throttle` is applied to body streams made from this form, `nil` (unthrottled) by default.
    public var throttle: MultipartBodyStream.Throttle?

    /// `init()` creates an empty form with a random boundary (see ``randomBoundary()``).
    public init() {
        boundary = Self.randomBoundary()
    }

    /// `init(boundary:)` creates an empty form with the given boundary, for reproducible bodies (tests, fixtures).
    ///
    /// The boundary must be 1 to 70 characters among letters, digits and `'+_-.`, so that it is
    /// valid both in a body (RFC 2046) and unquoted in the `Content-Type` header.
    public init(boundary: String) throws(FerryError) {
        let allowed = Set("'+_-.")
        let valid = (1...70).contains(boundary.utf8.count)
            && boundary.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || allowed.contains($0)) }
        guard valid else {
            throw .input(.invalidOption("invalid multipart boundary \"\(boundary.printable)\": use 1 to 70 letters, digits or '+_-."))
        }
        self.boundary = boundary
    }

    /// `randomBoundary()` returns a random boundary, `Boundary+` and 16 upper-case hex digits, from the system's generator.
    public static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        return randomBoundary(using: &generator)
    }

    /// `randomBoundary(using:)` returns a boundary, `Boundary+` and 16 upper-case hex digits (AFNetworking's `Boundary+%08X%08X`), from `generator`.
    public static func randomBoundary(using generator: inout some RandomNumberGenerator) -> String {
        let high = UInt32.random(in: .min ... .max, using: &generator)
        let low = UInt32.random(in: .min ... .max, using: &generator)
        return "Boundary+" + hex8(high) + hex8(low)
    }

    /// `contentType` is the value of the request's `Content-Type` header: `multipart/form-data; boundary=` and the boundary.
    public var contentType: String {
        "multipart/form-data; boundary=\(boundary)"
    }

    /// `contentLength` is the exact length of the body in bytes: 0 for a form with no parts.
    public var contentLength: Int64 {
        MultipartBodyStream(parts: parts, boundary: boundary).contentLength
    }

    /// `isEmpty` is whether the form has no parts (its body is then empty).
    public var isEmpty: Bool {
        parts.isEmpty
    }

    // MARK: Appending parts

    /// `appendPart(fileURL:name:)` appends the file at `fileURL` as a part named `name`, with the file's name and the MIME type for its extension.
    ///
    /// The type comes from ``MIMETypes``; an unknown extension is `application/octet-stream`.
    /// Throws if the file is missing, unreadable, a directory or not a regular file.
    public mutating func appendPart(fileURL: URL, name: String) throws(FerryError) {
        let fileName = fileURL.lastPathComponent
        try appendPart(fileURL: fileURL, name: name, fileName: fileName, mimeType: MIMETypes.type(forFileName: fileName))
    }

    /// `appendPart(fileURL:name:fileName:mimeType:)` appends the file at `fileURL` as a part named `name`, sent as `fileName` with the type `mimeType`.
    ///
    /// Throws if the file is missing, unreadable, a directory or not a regular file. Its size is
    /// taken now; a file whose size differs when it is sent fails the upload.
    public mutating func appendPart(fileURL: URL, name: String, fileName: String, mimeType: String) throws(FerryError) {
        try parts.append(.file(at: fileURL, headers: Self.fileHeaders(name: name, fileName: fileName, mimeType: mimeType)))
    }

    /// `appendPart(name:fileName:mimeType:length:inputStream:)` appends a part named `name`, sent as `fileName` with the type `mimeType`, whose body of exactly `length` bytes comes from `inputStream`.
    ///
    /// `inputStream` is called for every body stream made from the form (every attempt), when the
    /// part's body is reached; a stream whose ``BodyStream/contentLength`` or byte count differs
    /// from `length` fails the upload.
    public mutating func appendPart(
        name: String, fileName: String, mimeType: String, length: Int64,
        inputStream: @escaping @Sendable () throws(FerryError) -> any BodyStream
    ) throws(FerryError) {
        let headers = try Self.fileHeaders(name: name, fileName: fileName, mimeType: mimeType)
        try parts.append(FormPart(headers: headers, body: .stream(inputStream), bodyLength: length))
    }

    /// `appendPart(fileData:name:fileName:mimeType:)` appends `fileData` as a part named `name`, sent as a file called `fileName` with the type `mimeType`.
    public mutating func appendPart(fileData: Data, name: String, fileName: String, mimeType: String) throws(FerryError) {
        let headers = try Self.fileHeaders(name: name, fileName: fileName, mimeType: mimeType)
        try parts.append(FormPart(headers: headers, body: .data(fileData), bodyLength: Int64(fileData.count)))
    }

    /// `appendPart(formData:name:)` appends a form field named `name` whose value is `formData`, with no `Content-Type` (as browsers send fields).
    public mutating func appendPart(formData: Data, name: String) throws(FerryError) {
        let headers: HTTPHeaders = ["Content-Disposition": FormPart.contentDisposition(name: name, fileName: nil)]
        try parts.append(FormPart(headers: headers, body: .data(formData), bodyLength: Int64(formData.count)))
    }

    /// `appendPart(value:name:)` appends a form field named `name` whose value is `value` in UTF-8.
    public mutating func appendPart(value: String, name: String) throws(FerryError) {
        try appendPart(formData: Data(value.utf8), name: name)
    }

    /// `appendPart(headers:body:)` appends a part with the given header fields and `body`.
    ///
    /// The fields are sent as given (no escaping), `Content-Disposition` first and `Content-Type`
    /// second; names must be HTTP tokens and values free of CR, LF and NUL.
    public mutating func appendPart(headers: HTTPHeaders, body: Data) throws(FerryError) {
        try parts.append(FormPart(headers: headers, body: .data(body), bodyLength: Int64(body.count)))
    }

    /// `appendPart(headers:fileURL:)` appends a part with the given header fields whose body is the file at `fileURL`.
    ///
    /// Checked like ``appendPart(fileURL:name:fileName:mimeType:)``; headers as in ``appendPart(headers:body:)``.
    public mutating func appendPart(headers: HTTPHeaders, fileURL: URL) throws(FerryError) {
        try parts.append(.file(at: fileURL, headers: headers))
    }

    /// `appendPart(headers:length:inputStream:)` appends a part with the given header fields whose body of exactly `length` bytes comes from `inputStream`.
    ///
    /// `inputStream` is called as in ``appendPart(name:fileName:mimeType:length:inputStream:)``.
    public mutating func appendPart(
        headers: HTTPHeaders, length: Int64,
        inputStream: @escaping @Sendable () throws(FerryError) -> any BodyStream
    ) throws(FerryError) {
        try parts.append(FormPart(headers: headers, body: .stream(inputStream), bodyLength: length))
    }

    /// `throttle(bytesPerPacket:delay:)` limits every body stream's reads to `bytesPerPacket` bytes, sleeping `delay` between packets.
    ///
    /// Blocking by design, as AFNetworking's `throttleBandwidthWithPacketSize:delay:` (see
    /// ``MultipartBodyStream/Throttle``).
    public mutating func throttle(bytesPerPacket: Int, delay: Duration) {
        throttle = MultipartBodyStream.Throttle(bytesPerPacket: bytesPerPacket, delay: delay)
    }

    // MARK: Producing the body

    /// `makeBodyStream()` makes a stream that produces the body from its first byte; call it once per attempt.
    ///
    /// File parts are checked again first: a file that is gone or whose size changed since it
    /// was appended fails here, before any byte is sent. The files themselves are opened only
    /// when the stream reaches them.
    public func makeBodyStream() throws(FerryError) -> MultipartBodyStream {
        try checkFilesUnchanged()
        return MultipartBodyStream(parts: parts, boundary: boundary, throttle: throttle)
    }

    /// `checkFilesUnchanged()` checks that every file part is still a readable regular file of the size it had when appended.
    func checkFilesUnchanged() throws(FerryError) {
        for part in parts {
            guard case .file(let url) = part.body else { continue }
            let size = try FormPart.regularFileSize(at: url)
            guard size == part.bodyLength else {
                throw .upload(.fileChanged(path: url.path, expected: part.bodyLength, actual: size))
            }
        }
    }

    /// `requestBody` is the body for a ``Request``: a stream factory that calls ``makeBodyStream()`` for every attempt.
    public var requestBody: RequestBody {
        let form = self
        return .stream { () throws(FerryError) -> any BodyStream in try form.makeBodyStream() }
    }

    /// `applied(to:)` returns `request` with this form as its body and `Content-Type` set, or unchanged when the form is empty.
    ///
    /// The engine sends `Content-Length` from the body stream's ``MultipartBodyStream/contentLength``.
    /// An empty form leaves the request as it was, as AFNetworking's `requestByFinalizingMultipartFormData` does.
    public func applied(to request: Request) -> Request {
        guard !isEmpty else { return request }
        var request = request
        request.headers["Content-Type"] = contentType
        request.body = requestBody
        return request
    }

    private static func fileHeaders(name: String, fileName: String, mimeType: String) throws(FerryError) -> HTTPHeaders {
        guard !mimeType.isEmpty else { throw .input(.invalidOption("the MIME type of part \"\(name.printable)\" is empty")) }
        try HTTPHeaders.validate(name: "Content-Type", value: mimeType)
        return [
            "Content-Disposition": FormPart.contentDisposition(name: name, fileName: fileName),
            "Content-Type": mimeType,
        ]
    }

    private static func hex8(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
