/// `ContentRange` is a parsed `Content-Range` header of a byte range reply (RFC 9110 14.4).
///
/// `bytes a-b/n` and `bytes a-b/*` are ranges, `bytes */n` is the reply to an unsatisfiable
/// range. Anything else (other units, negative or absurd numbers, `b < a`, `n <= b`) does
/// not parse: a reply that cannot be understood is never trusted.
public enum ContentRange: Sendable, Hashable {
    /// Bytes `first...last` of a representation of `total` bytes (`nil` when the server sent `*`).
    case bytes(first: Int64, last: Int64, total: Int64?)
    /// The range was not satisfiable; the representation has `total` bytes.
    case unsatisfied(total: Int64)

    /// Parses a header value; `nil` when it is not a valid byte range.
    public init?(parsing text: String) {
        let value = text.trimmingCharacters(in: .whitespaces)
        guard value.count > 6, value.prefix(6).lowercased() == "bytes " else { return nil }
        let rest = value.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let halves = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let rangeText = halves[0]
        let totalText = halves[1]
        if rangeText == "*" {
            guard let total = Self.number(totalText) else { return nil }
            self = .unsatisfied(total: total)
            return
        }
        let ends = rangeText.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard ends.count == 2, let first = Self.number(ends[0]), let last = Self.number(ends[1]), first <= last else { return nil }
        if totalText == "*" {
            self = .bytes(first: first, last: last, total: nil)
            return
        }
        guard let total = Self.number(totalText), last < total else { return nil }
        self = .bytes(first: first, last: last, total: total)
    }

    /// The total length of the representation when the server said it.
    public var total: Int64? {
        switch self {
        case .bytes(_, _, let total): total
        case .unsatisfied(let total): total
        }
    }

    /// A non-negative decimal without sign or spaces that fits 63 bits, else `nil`.
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(text)
    }
}
