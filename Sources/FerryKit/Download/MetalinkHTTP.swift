import Foundation

/// `MetalinkHTTP` is what a response says of other sources of its file and of the file's hash
/// (Metalink/HTTP, RFC 6249): `Link: <URL>; rel=duplicate; pri=N` mirrors, and the
/// representation's digest from `Repr-Digest` (RFC 9530), `Digest` (RFC 3230) or, on a whole
/// reply without a content coding, `Content-Digest`.
public struct MetalinkHTTP: Sendable, Equatable {
    /// `mirrors` are the other sources, best first (`pref` ones first, then by `pri`, then in
    /// the order given): absolute http(s) URLs, the response's own URL left out.
    public var mirrors: [URL] = []
    /// `checksum` is the strongest digest named (sha-512, sha-256, sha-1, md5); `nil` when none
    /// is, or none reads.
    public var checksum: ExpectedChecksum?

    /// `isEmpty` is true when the response named neither.
    public var isEmpty: Bool { mirrors.isEmpty && checksum == nil }

    /// `maximumMirrors` is how many mirrors one response may add (more are ignored).
    public static let maximumMirrors = 32

    public init(mirrors: [URL] = [], checksum: ExpectedChecksum? = nil) {
        self.mirrors = mirrors
        self.checksum = checksum
    }

    /// `init(response:)` reads `response`'s headers; relative links are resolved against its URL.
    public init(response: HTTPResponse) {
        mirrors = Self.duplicates(in: response.headers.values(for: "Link"), base: response.url)
        var digests: [ExpectedChecksum] = []
        for value in response.headers.values(for: "Repr-Digest") { digests += Self.structuredDigests(value) }
        for value in response.headers.values(for: "Digest") { digests += Self.instanceDigests(value) }
        if response.statusCode == 200, response.headers["Content-Encoding"] == nil {
            for value in response.headers.values(for: "Content-Digest") { digests += Self.structuredDigests(value) }
        }
        let strength: [ExpectedChecksum.Algorithm] = [.sha512, .sha256, .sha1, .md5]
        checksum = strength.lazy.compactMap { algorithm in digests.first { $0.algorithm == algorithm } }.first
    }

    // MARK: - Link (RFC 8288)

    /// `duplicates(in:base:)` are the `rel=duplicate` targets of `Link` values, best first.
    static func duplicates(in values: [String], base: URL) -> [URL] {
        var found: [(url: URL, preferred: Bool, priority: Int, order: Int)] = []
        var seen: Set<String> = [base.absoluteString]
        for value in values {
            for link in splitOutsideQuotes(value, on: ",") {
                let trimmed = link.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("<"), let close = trimmed.firstIndex(of: ">") else { continue }
                let target = String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
                let parameters = parameters(of: String(trimmed[trimmed.index(after: close)...]))
                let relations = (parameters["rel"] ?? "").lowercased().split(separator: " ").map(String.init)
                guard relations.contains("duplicate"), let url = URL(string: target, relativeTo: base)?.absoluteURL,
                      let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil,
                      seen.insert(url.absoluteString).inserted else { continue }
                let priority = parameters["pri"].flatMap { Int($0) }.map { min(max($0, 1), 999_999) } ?? 999_999
                found.append((url, parameters["pref"] != nil, priority, found.count))
                if found.count == maximumMirrors { break }
            }
        }
        return found.sorted { left, right in
            if left.preferred != right.preferred { return left.preferred }
            if left.priority != right.priority { return left.priority < right.priority }
            return left.order < right.order
        }.map(\.url)
    }

    /// `parameters(of:)` are a link's `; name=value` parameters, names lowercased, quotes
    /// removed; a parameter without a value (`pref`) maps to "".
    static func parameters(of text: String) -> [String: String] {
        var result: [String: String] = [:]
        for part in splitOutsideQuotes(text, on: ";") {
            let piece = part.trimmingCharacters(in: .whitespaces)
            guard !piece.isEmpty else { continue }
            let pair = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = pair.first, !first.isEmpty else { continue }
            let name = first.lowercased()
            var value = pair.count > 1 ? pair[1] : ""
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            if result[name] == nil { result[name] = value }
        }
        return result
    }

    /// `splitOutsideQuotes(_:on:)` splits `text` at `separator` where it is not inside a quoted
    /// string or a `<...>` target.
    static func splitOutsideQuotes(_ text: String, on separator: Character) -> [Substring] {
        var parts: [Substring] = []
        var start = text.startIndex
        var quoted = false
        var bracketed = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\"", !bracketed {
                quoted.toggle()
            } else if character == "<", !quoted {
                bracketed = true
            } else if character == ">", !quoted {
                bracketed = false
            } else if character == separator, !quoted, !bracketed {
                parts.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        parts.append(text[start...])
        return parts
    }

    // MARK: - Digests

    /// `instanceDigests(_:)` reads RFC 3230's `Digest: SHA-256=BASE64, MD5=BASE64` (`SHA` is
    /// SHA-1); algorithms Ferry does not compute are skipped.
    static func instanceDigests(_ value: String) -> [ExpectedChecksum] {
        splitOutsideQuotes(value, on: ",").compactMap { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, !pair[0].isEmpty else { return nil }
            let name = pair[0].lowercased() == "sha" ? "sha-1" : pair[0]
            return checksum(name: name, base64: pair[1])
        }
    }

    /// `structuredDigests(_:)` reads RFC 9530's dictionary `sha-256=:BASE64:, sha-512=:BASE64:`.
    static func structuredDigests(_ value: String) -> [ExpectedChecksum] {
        splitOutsideQuotes(value, on: ",").compactMap { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[1].count >= 2, pair[1].hasPrefix(":"), pair[1].hasSuffix(":") else { return nil }
            return checksum(name: pair[0], base64: String(pair[1].dropFirst().dropLast()))
        }
    }

    /// `checksum(name:base64:)` is the digest named `name` with the bytes of `base64`, when
    /// both read and the length fits the algorithm.
    static func checksum(name: String, base64: String) -> ExpectedChecksum? {
        guard let algorithm = ExpectedChecksum.Algorithm(name: name), let bytes = Data(base64Encoded: base64) else { return nil }
        return try? ExpectedChecksum(algorithm: algorithm, hex: ChecksumHasher.hex(bytes))
    }
}
