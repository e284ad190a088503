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

    /// `parseRate(_:)` reads a rate: a byte count as `parseByteCount(_:)` reads it, for
    /// example `500K`, `1M` or `1.5M`; `0` means unlimited and is returned as `nil`. The one
    /// grammar of rates and sizes everywhere: command line, config file, RPC and the UI.
    public static func parseRate(_ text: String) throws(QueueError) -> Int64? {
        guard let bytes = parseByteCount(text) else { throw .input(.invalidRate(text)) }
        return bytes == 0 ? nil : bytes
    }

    /// `parseByteCount(_:)` reads a number of bytes with an optional `K`, `M` or `G` suffix
    /// (1024-based, either case; aria2's form, with curl's `G` and fractions such as `1.5M`,
    /// rounded down to a whole byte), blanks around it ignored; `nil` when it is not one (a
    /// sign, an exponent, another suffix) or does not fit 63 bits.
    public static func parseByteCount(_ text: String) -> Int64? {
        var number = Substring(text.trimmingCharacters(in: .whitespaces))
        var multiplier: Int64 = 1
        switch number.last {
        case "k", "K": multiplier = 1 << 10
        case "m", "M": multiplier = 1 << 20
        case "g", "G": multiplier = 1 << 30
        default: break
        }
        if multiplier > 1 { number = number.dropLast() }
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              parts.count == 1 || !parts[1].isEmpty, let units = Int64(whole) else { return nil }
        let (bytes, overflow) = units.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        guard parts.count == 2, let fraction = Double("0." + parts[1]) else { return bytes }
        let (total, over) = bytes.addingReportingOverflow(Int64(fraction * Double(multiplier)))
        return over ? nil : total
    }
}
