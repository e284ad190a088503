/// `TaskOptions` are per-task transfer limits; `nil` means "use the engine's default".
public struct TaskOptions: Sendable, Hashable {
    /// `maxDownloadLimit` caps the download speed in bytes per second; `nil` by default
    /// (unlimited).
    public var maxDownloadLimit: Int64?
    /// `retries` is how many times a failed attempt is retried; `nil` by default (the
    /// engine's retry policy decides).
    public var retries: Int?
    /// `connections` is how many connections a download may use at once (1-16, aria2's
    /// `split` and `max-connection-per-server`); `nil` by default (the engine's default).
    public var connections: Int?
    /// `minSplitSize` is the smallest range split in two (no range with less than twice it
    /// left is split; aria2's `min-split-size`); `nil` by default (the engine's default).
    public var minSplitSize: Int64?

    /// `init(maxDownloadLimit:retries:connections:minSplitSize:)` makes options; everything is `nil` by default.
    public init(maxDownloadLimit: Int64? = nil, retries: Int? = nil, connections: Int? = nil, minSplitSize: Int64? = nil) {
        self.maxDownloadLimit = maxDownloadLimit
        self.retries = retries
        self.connections = connections
        self.minSplitSize = minSplitSize
    }

    /// `connectionRange` are the connection counts a download may use.
    public static let connectionRange = 1...16

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
