/// `ResponseHeadParser` reads the head of an HTTP response line by line, as libcurl hands
/// the lines over: the status line, then the header fields.
///
/// Pure and byte-based (CR, LF, SP and HTAB are ASCII in UTF-8 and ISO Latin-1 alike); only
/// the parts kept become strings. A status line (`HTTP/...`) starts a new response (a
/// redirect, `100 Continue`, or the final one) and clears the fields; a line with a `:` after
/// a status line is a field; anything else is ignored. Used by one thread at a time (the
/// engine's), like the handle that owns it.
struct ResponseHeadParser {
    /// `statusCode` is the last status line's code, `0` before one or when it had none.
    private(set) var statusCode = 0
    /// `reasonPhrase` is the last status line's text after the code, as sent; empty by default.
    private(set) var reasonPhrase = ""
    /// `httpVersion` is the last status line's first word, `HTTP/1.1` by default.
    private(set) var httpVersion = "HTTP/1.1"
    /// `headers` are the fields received since the last status line, in order.
    private(set) var headers = HTTPHeaders()

    /// `receive(_:)` takes one header line (with or without its CR LF).
    ///
    /// A bare CR inside the line is read as a space (RFC 9112 section 2.2), so no name, value
    /// or reason phrase ever holds one.
    mutating func receive(_ line: UnsafeRawBufferPointer) {
        let bytes = line.trimming { $0 == 0x0D || $0 == 0x0A }
        guard !bytes.contains(0x0D) else {
            let spaced = bytes.map { $0 == 0x0D ? 0x20 : $0 }
            spaced.withUnsafeBytes { parse($0[...]) }
            return
        }
        parse(bytes)
    }

    private mutating func parse(_ bytes: Slice<UnsafeRawBufferPointer>) {
        if bytes.starts(with: Self.statusLinePrefix) {
            // "VERSION SP STATUS [SP REASON]", runs of spaces taken as one.
            var rest = bytes[...]
            let version = Self.nextWord(&rest)
            let status = Self.nextWord(&rest)
            httpVersion = version.isEmpty ? "HTTP/1.1" : Self.headerText(version)
            statusCode = Self.statusCode(status)
            reasonPhrase = rest.isEmpty ? "" : Self.headerText(rest)
            headers = HTTPHeaders()
            headers.reserveCapacity(16)
        } else if let colon = bytes.firstIndex(of: 0x3A), statusCode != 0 {
            let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
            let name = Self.headerText(bytes[..<colon].trimming(blank))
            let value = Self.headerText(bytes[(colon + 1)...].trimming(blank))
            headers.add(name: name, value: value)
        }
    }

    private static let statusLinePrefix: [UInt8] = Array("HTTP/".utf8)

    /// `nextWord(_:)` takes the bytes up to the next space off the front of `rest` (and the
    /// spaces after them).
    private static func nextWord(_ rest: inout Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        let end = rest.firstIndex(of: 0x20) ?? rest.endIndex
        let word = rest[rest.startIndex..<end]
        rest = rest[end...]
        while rest.first == 0x20 { rest = rest.dropFirst() }
        return word
    }

    /// `statusCode(_:)` is the status code in `word`: up to three digits, else 0 (no status).
    private static func statusCode(_ word: Slice<UnsafeRawBufferPointer>) -> Int {
        word.count <= 3 ? Int(decimal: word) ?? 0 : 0
    }

    /// `headerText(_:)` decodes header bytes as UTF-8, or as ISO Latin-1 when they are not.
    private static func headerText(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        // ASCII (nearly every header) is copied as it is, without the generic validation.
        let contiguous = UnsafeRawBufferPointer(rebasing: bytes)
        if contiguous.allSatisfy({ $0 < 0x80 }) { return String(decoding: contiguous, as: UTF8.self) }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
