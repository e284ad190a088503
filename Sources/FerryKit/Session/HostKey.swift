/// `HostKey` names the server a URL points at, `host:port` with the host in lower case and the
/// scheme's default port filled in, so that the per-host limits of a session and of a queue
/// count the same transfers together. Read off the text's bytes without a URL parser (it runs
/// for every transfer started).
package enum HostKey {
    /// `of(_:)` is the key of `url` (its own text when it has no `scheme://`).
    public static func of(_ url: String) -> String {
        var url = url
        return url.withUTF8 { key(of: $0) } ?? url
    }

    private static func key(of text: UnsafeBufferPointer<UInt8>) -> String? {
        let colon = UInt8(ascii: ":"), slash = UInt8(ascii: "/")
        guard let schemeEnd = text.firstIndex(of: colon), schemeEnd + 2 < text.count,
              text[schemeEnd + 1] == slash, text[schemeEnd + 2] == slash else { return nil }
        let authorityStart = schemeEnd + 3
        var authorityEnd = authorityStart
        while authorityEnd < text.count {
            let byte = text[authorityEnd]
            if byte == slash || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            authorityEnd += 1
        }
        var hostStart = authorityStart
        var index = authorityEnd
        while index > authorityStart {
            index -= 1
            if text[index] == UInt8(ascii: "@") {
                hostStart = index + 1
                break
            }
        }
        // The last colon separates the port unless it is inside an IPv6 literal ("[::1]").
        var hostEnd = authorityEnd
        var explicitPort: Int?
        index = authorityEnd
        while index > hostStart {
            index -= 1
            let byte = text[index]
            if byte == UInt8(ascii: "]") { break }
            if byte == colon {
                hostEnd = index
                explicitPort = Int(decimal: UnsafeBufferPointer(rebasing: text[(index + 1)..<authorityEnd]))
                break
            }
        }
        let host = UnsafeBufferPointer(rebasing: text[hostStart..<hostEnd])
        let port = explicitPort ?? (isHTTPS(UnsafeBufferPointer(rebasing: text[..<schemeEnd])) ? 443 : 80)
        guard host.allSatisfy({ $0 < 0x80 }) else {
            return "\(String(decoding: host, as: UTF8.self).lowercased()):\(port)"
        }
        // Lower-cased into the string's own storage (a lazy map would be decoded through a
        // generic path with a dynamic cast).
        var key = String(unsafeUninitializedCapacity: host.count) { storage in
            for (offset, byte) in host.enumerated() {
                storage[offset] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            }
            return host.count
        }
        key += ":"
        key += String(port)
        return key
    }

    private static func isHTTPS(_ scheme: UnsafeBufferPointer<UInt8>) -> Bool {
        guard scheme.count == 5 else { return false }
        return zip(scheme, "https".utf8).allSatisfy { $0 | 0x20 == $1 }
    }
}
