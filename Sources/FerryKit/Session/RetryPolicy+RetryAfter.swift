import Foundation

extension RetryPolicy {
    /// Seconds a `Retry-After` value asks for: delay-seconds, or an HTTP date (any of the three
    /// forms, `HTTPDate`) relative to `now`; `nil` when it is neither. The policy caps the
    /// result at ``maximumDelay``.
    public static func retryAfterSeconds(_ value: String, now: Date = Date()) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            return Double(text)
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
