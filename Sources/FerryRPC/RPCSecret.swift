/// `RPCSecret` is the secret TCP clients give as their first parameter (`token:SECRET`).
public struct RPCSecret: Sendable {
    private let bytes: [UInt8]

    /// `init(_:)` keeps `text`; an empty secret is none (`nil`).
    public init?(_ text: String) {
        guard !text.isEmpty else { return nil }
        bytes = Array(text.utf8)
    }

    /// `matches(token:)` compares `token` with the secret in time that depends only on the
    /// lengths, never on where the first difference is.
    public func matches(token: String) -> Bool {
        let given = Array(token.utf8)
        var difference = UInt8(truncatingIfNeeded: given.count ^ bytes.count)
        for index in 0..<max(given.count, bytes.count) {
            let left = index < given.count ? given[index] : 0
            let right = index < bytes.count ? bytes[index] : 0
            difference |= left ^ right
        }
        return difference == 0 && given.count == bytes.count
    }
}
