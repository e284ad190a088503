import Foundation

/// `ResponseText` converts a body in the charset its response declares into UTF-8.
///
/// A known `charset` (any IANA name Foundation knows: `utf-16`, `iso-8859-1`,
/// `windows-1252`, `shift_jis`, ...) is decoded and re-encoded as UTF-8. With no charset, or
/// one Foundation does not know, the Unicode encoding is detected from a byte-order mark or
/// the pattern of zero bytes at the start (RFC 4627 §3), as `JSONSerialization` does.
/// A leading byte-order mark is dropped.
enum ResponseText {
    /// The body as UTF-8 bytes, or `nil` when it is not valid text in its encoding; also
    /// returns the name of the encoding used, for messages.
    static func utf8Bytes(of data: Data, charset: String?) -> (bytes: [UInt8]?, encodingName: String) {
        let encoding = charset.flatMap { String.Encoding(ianaName: $0) } ?? detectedUnicodeEncoding(of: data)
        let name = encoding.ianaName ?? charset ?? "UTF-8"
        if encoding == .utf8 {
            var bytes = [UInt8](data)
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
            return (bytes, name)
        }
        guard var text = String(data: data, encoding: encoding) else { return (nil, name) }
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        return (Array(text.utf8), name)
    }

    /// UTF-8, UTF-16 or UTF-32 (with their byte order), from a byte-order mark or zero bytes.
    static func detectedUnicodeEncoding(of data: Data) -> String.Encoding {
        let head = [UInt8](data.prefix(4)) + [UInt8](repeating: 0xAA, count: max(0, 4 - min(data.count, 4)))
        switch (head[0], head[1], head[2], head[3]) {
        case (0xEF, 0xBB, 0xBF, _): return .utf8
        case (0x00, 0x00, 0xFE, 0xFF): return .utf32BigEndian
        case (0xFF, 0xFE, 0x00, 0x00) where data.count >= 4: return .utf32LittleEndian
        case (0xFE, 0xFF, _, _): return .utf16BigEndian
        case (0xFF, 0xFE, _, _): return .utf16LittleEndian
        case (0x00, 0x00, 0x00, _) where data.count >= 4: return .utf32BigEndian
        case (_, 0x00, 0x00, 0x00) where data.count >= 4: return .utf32LittleEndian
        case (0x00, _, _, _) where data.count >= 2: return .utf16BigEndian
        case (_, 0x00, _, _) where data.count >= 2: return .utf16LittleEndian
        default: return .utf8
        }
    }
}
