import Foundation

/// `SafeFileName` reduces any text (a URL path, a server-supplied name) to a safe basename.
///
/// The result has no `/`, `\`, NUL or control characters, no leading dot, is not `.` or `..`,
/// and fits the file system's 255-byte limit together with the `.part` suffix, shortened on a
/// UTF-8 boundary keeping the extension.
package enum SafeFileName {
    /// The most bytes a name may have, leaving room for `.part`.
    public static let maximumBytes = 255 - 5
    /// The name used when nothing usable is left.
    public static let fallback = "index.html"

    /// `fromURL(string:)` is `fromURL(URL(string: text))`, `nil` when `text` is no URL; a
    /// plain `http`/`https` URL (a host name or IPv4 address, an optional port, a path and
    /// query of unreserved and sub-delimiter characters, no percent escapes) is read on its
    /// bytes, without parsing it into a `URL` (`ferry list` names a million queued tasks so).
    public static func fromURL(string text: String) -> String? {
        if let name = plainURLName(text) { return name }
        return URL(string: text).map(fromURL)
    }

    /// `plainURLName(_:)` is the name of a plain URL (see `fromURL(string:)`), `nil` for any
    /// other text, which `URL` must parse.
    static func plainURLName(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            let scheme: Int
            if bytes.starts(with: "http://".utf8) { scheme = 7 } else if bytes.starts(with: "https://".utf8) { scheme = 8 } else { return nil }
            var index = scheme
            // The host: letters, digits, dots and hyphens, at least one; then an optional port.
            while index < bytes.count, isHostByte(bytes[index]) { index += 1 }
            guard index > scheme else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                index += 1
                let digits = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                guard index > digits, index - digits <= 5 else { return nil }
            }
            // Then a path (`/...`), a query (`?...`) and a fragment (`#...`, one `#`), each optional.
            let pathStart = index
            var pathEnd = bytes.count
            var fragment = false
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "#"):
                    guard !fragment else { return nil }
                    fragment = true
                    pathEnd = min(pathEnd, index)
                case UInt8(ascii: "?"):
                    pathEnd = min(pathEnd, index)
                case UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "@"):
                    break
                case let byte where isSegmentByte(byte):
                    break
                default:
                    return nil
                }
                index += 1
            }
            guard pathStart == pathEnd || bytes[pathStart] == UInt8(ascii: "/") else { return nil }
            var end = pathEnd
            while end > pathStart, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
            var start = end
            while start > pathStart, bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
            return sanitize(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
        }
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "-"): true
        default: false
        }
    }

    /// `isSegmentByte(_:)` is true for RFC 3986's unreserved and sub-delimiter characters.
    private static func isSegmentByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="): true
        default: false
        }
    }

    /// The last path segment of `url`, percent-decoded, made safe.
    public static func fromURL(_ url: URL) -> String {
        let path = url.path(percentEncoded: true)
        // The last non-empty segment, found from the end (no array of every segment).
        let bytes = path.utf8
        let slash = UInt8(ascii: "/")
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == slash { end = bytes.index(before: end) }
        var start = end
        while start > bytes.startIndex, bytes[bytes.index(before: start)] != slash { start = bytes.index(before: start) }
        let lastSegment = String(path[start..<end])
        guard lastSegment.utf8.contains(UInt8(ascii: "%")) else { return sanitize(lastSegment) }
        let decoded = lastSegment.removingPercentEncoding ?? lastSegment
        return sanitize(decoded)
    }

    /// `name` made safe (see the type's description); `fallback` when nothing usable is left.
    public static func sanitize(_ name: String) -> String {
        if isPlain(name) { return name }
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            switch scalar {
            case "/", "\\": scalars.append("_")
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: continue
            case _ where (0x80...0x9F).contains(scalar.value): continue
            case _ where isBidiControl(scalar): continue
            default: scalars.append(scalar)
            }
        }
        // Leading dots and blanks go in any mix (". .x" is not made ".x"), trailing blanks too.
        let blanks = CharacterSet.whitespacesAndNewlines
        while let first = scalars.first, first == "." || blanks.contains(first) { scalars.removeFirst() }
        let cleaned = String(scalars).trimmingCharacters(in: blanks)
        if cleaned.isEmpty { return fallback }
        guard cleaned.utf8.count > maximumBytes else { return cleaned }
        // Cutting may leave blanks at the new end: trim again.
        let short = shorten(cleaned, toBytes: maximumBytes).trimmingCharacters(in: .whitespacesAndNewlines)
        return short.isEmpty ? fallback : short
    }

    /// Shortens `name` to at most `limit` UTF-8 bytes on a character boundary, keeping a short extension.
    ///
    /// A first character too long for the limit (a letter under hundreds of combining marks)
    /// is cut between its scalars, so that the result is never just the extension.
    public static func shorten(_ name: String, toBytes limit: Int) -> String {
        guard name.utf8.count > limit else { return name }
        let (stem, ext) = split(name)
        let extensionPart = ext.map { "." + $0 } ?? ""
        let keepExtension = extensionPart.utf8.count <= 16 && extensionPart.utf8.count < limit
        let budget = keepExtension ? limit - extensionPart.utf8.count : limit
        var kept = ""
        var used = 0
        for character in (keepExtension ? stem : name) {
            let size = character.utf8.count
            if used + size > budget {
                if kept.isEmpty {
                    for scalar in character.unicodeScalars {
                        let width = UTF8.width(scalar)
                        if used + width > budget { break }
                        kept.unicodeScalars.append(scalar)
                        used += width
                    }
                }
                break
            }
            kept.append(character)
            used += size
        }
        return keepExtension ? kept + extensionPart : kept
    }

    /// Splits `name` into stem and extension (without the dot); `.tar.gz`-style pairs count as one extension.
    public static func split(_ name: String) -> (stem: String, ext: String?) {
        let lower = name.lowercased()
        for double in ["tar.gz", "tar.bz2", "tar.xz", "tar.zst", "tar.lz", "tar.Z"] where lower.hasSuffix("." + double.lowercased()) && name.count > double.count + 1 {
            let stem = String(name.dropLast(double.count + 1))
            return (stem, String(name.suffix(double.count)))
        }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else {
            return (name, nil)
        }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }

    /// `name` with a counter before its extension: `name.1.ext`, `name.2.ext`, ...
    ///
    /// A name that would exceed ``maximumBytes`` loses the end of its stem; an extension too
    /// long to keep (over 16 bytes with its dot, as in ``shorten(_:toBytes:)``) is cut with it
    /// and the counter goes last.
    public static func numbered(_ name: String, _ counter: Int) -> String {
        let (stem, ext) = split(name)
        let counterPart = ".\(counter)"
        let extensionPart = ext.map { "." + $0 } ?? ""
        let candidate = stem + counterPart + extensionPart
        guard candidate.utf8.count > maximumBytes else { return candidate }
        guard extensionPart.utf8.count <= 16 else {
            return shorten(name, toBytes: maximumBytes - counterPart.utf8.count) + counterPart
        }
        let budget = maximumBytes - counterPart.utf8.count - extensionPart.utf8.count
        return shorten(stem, toBytes: budget) + counterPart + extensionPart
    }

    /// `isPlain(_:)` is true for a name `sanitize(_:)` keeps as it is: printable ASCII without
    /// `/` or `\`, not starting with a dot or a space, not ending with a space, short enough.
    /// Most names are such; they skip the general path.
    static func isPlain(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, let last = bytes.last, bytes.count <= maximumBytes,
              first != UInt8(ascii: "."), first != UInt8(ascii: " "), last != UInt8(ascii: " ") else { return false }
        return bytes.allSatisfy { byte in
            byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "/") && byte != UInt8(ascii: "\\") || byte == 0x20
        }
    }

    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
