/// `TaskOptions` are per-task transfer limits; `nil` means "use the engine's default".
public struct TaskOptions: Sendable, Hashable {
    /// `maxDownloadLimit` caps the download speed in bytes per second; `nil` by default
    /// (unlimited).
    public var maxDownloadLimit: Int64?
    /// `retries` is how many times a failed attempt is retried; `nil` by default (the
    /// engine's retry policy decides).
    public var retries: Int?

    /// `init(maxDownloadLimit:retries:)` makes options; everything is `nil` by default.
    public init(maxDownloadLimit: Int64? = nil, retries: Int? = nil) {
        self.maxDownloadLimit = maxDownloadLimit
        self.retries = retries
    }

    /// `parseRate(_:)` reads a rate in aria2's form: a byte count with an optional `K` or
    /// `M` suffix (1024-based, either case), for example `500K` or `1M`; `0` means unlimited
    /// and is returned as `nil`.
    public static func parseRate(_ text: String) throws(QueueError) -> Int64? {
        var digits = Substring(text)
        var multiplier: Int64 = 1
        if let last = digits.last {
            switch last {
            case "k", "K": multiplier = 1024; digits = digits.dropLast()
            case "m", "M": multiplier = 1024 * 1024; digits = digits.dropLast()
            default: break
            }
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let value = Int64(digits) else {
            throw .input(.invalidRate(text))
        }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { throw .input(.invalidRate(text)) }
        return bytes == 0 ? nil : bytes
    }
}
