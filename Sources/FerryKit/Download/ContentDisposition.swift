import Foundation

/// `ContentDisposition` is a parsed `Content-Disposition` header (RFC 6266), used only to
/// suggest a file name when the user asks for it.
///
/// `filename*=` (RFC 8187: `UTF-8''%e2%82%ac.txt`, also ISO-8859-1) is preferred over
/// `filename=`. The suggestion is reduced to a safe basename by ``safeFileName``: the last
/// segment of any path, then ``SafeFileName/sanitize(_:)`` (no `/`, `\`, NUL, control or bidi
/// characters, no leading dot, at most 250 bytes keeping the extension).
public struct ContentDisposition: Sendable, Hashable {
    /// The disposition type, lowercased (`attachment`, `inline`, ...).
    public var type: String
    /// The plain `filename=` parameter, as sent (unquoted), or `nil`.
    public var fileName: String?
    /// The decoded `filename*=` parameter, or `nil` when missing or undecodable.
    public var extendedFileName: String?

    /// Parses a header value; `nil` when it has no disposition type.
    public init?(parsing text: String) {
        var scanner = ParameterScanner(Array(text.unicodeScalars))
        let type = scanner.token().lowercased()
        guard !type.isEmpty else { return nil }
        self.type = type
        while scanner.skip(";") {
            let name = scanner.token().lowercased()
            guard scanner.skip("=") else {
                scanner.skipUntilSemicolon()
                continue
            }
            let value = scanner.value()
            switch name {
            case "filename" where fileName == nil: fileName = value
            case "filename*" where extendedFileName == nil: extendedFileName = Self.decodeExtendedValue(value)
            default: break
            }
        }
    }

    /// The name the server suggests: `filename*` when decodable, else `filename`, else `nil`.
    public var suggestedFileName: String? {
        extendedFileName ?? fileName
    }

    /// The suggestion reduced to a safe basename, or `nil` when there is none or nothing usable is left.
    public var safeFileName: String? {
        guard let suggested = suggestedFileName else { return nil }
        let lastSegment = suggested.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let safe = SafeFileName.sanitize(lastSegment)
        return lastSegment.isEmpty || safe == SafeFileName.fallback && lastSegment != SafeFileName.fallback ? nil : safe
    }

    /// Decodes an RFC 8187 `ext-value` (`charset'language'pct-encoded`); `nil` when malformed.
    static func decodeExtendedValue(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let encoding: String.Encoding
        switch parts[0].lowercased() {
        case "utf-8": encoding = .utf8
        case "iso-8859-1": encoding = .isoLatin1
        default: return nil
        }
        var bytes: [UInt8] = []
        var utf8 = Array(parts[2].utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard utf8.count >= 2, let high = hexValue(utf8.removeFirst()), let low = hexValue(utf8.removeFirst()) else { return nil }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(bytes: bytes, encoding: encoding)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
