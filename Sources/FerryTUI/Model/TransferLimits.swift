import FerryKit

/// `TransferLimits` are the engine's concurrency limits as the header shows them and the
/// user changes them: transfers at once, and at once to one host.
public struct TransferLimits: Sendable, Hashable {
    /// `range` is what either limit may be set to.
    public static let range = 1...999

    /// `maximumConcurrent` is the most transfers at once.
    public var maximumConcurrent: Int
    /// `maximumPerHost` is the most transfers at once to one host and port.
    public var maximumPerHost: Int
    /// `overallDownload` is the download speed all transfers share, bytes per second; `nil`
    /// (no limit) by default.
    public var overallDownload: Int64?
    /// `offline` is true while the engine waits for the network to return; `false` by default.
    public var offline = false

    /// `init(maximumConcurrent:maximumPerHost:overallDownload:)` makes limits, each count
    /// kept in `range`.
    public init(maximumConcurrent: Int, maximumPerHost: Int, overallDownload: Int64? = nil) {
        self.maximumConcurrent = min(max(maximumConcurrent, Self.range.lowerBound), Self.range.upperBound)
        self.maximumPerHost = min(max(maximumPerHost, Self.range.lowerBound), Self.range.upperBound)
        self.overallDownload = overallDownload.flatMap { $0 > 0 ? $0 : nil }
    }

    /// `label` is the header's text, for example "5 at once · 4/host" or
    /// "5 at once · 4/host · max 2.0 MB/s".
    public var label: String {
        var label = "\(maximumConcurrent) at once · \(maximumPerHost)/host"
        if let overallDownload { label += " · max " + ByteFormatting.speed(Double(overallDownload)) }
        return offline ? "offline · " + label : label
    }

    /// `rateText(_:)` is a rate as typed: `2M`, `512K` or a byte count.
    public static func rateText(_ rate: Int64) -> String {
        if rate % (1024 * 1024) == 0 { return "\(rate / (1024 * 1024))M" }
        if rate % 1024 == 0 { return "\(rate / 1024)K" }
        return String(rate)
    }

    /// `overallSteps` are the shared download limits `+` and `-` move between (bytes per
    /// second); above the last is no limit.
    public static let overallSteps: [Int64] = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131_072].map { $0 * 1024 }

    /// `overallStepped(up:currentSpeed:)` is the shared limit one step faster or slower:
    /// faster from the last step is no limit; slower from no limit is the step under
    /// `currentSpeed` (the total download speed now), so that the first `-` is felt.
    public func overallStepped(up: Bool, currentSpeed: Int64) -> Int64? {
        let steps = Self.overallSteps
        guard let current = overallDownload else {
            if up { return nil }
            return steps.last { $0 < max(currentSpeed, steps[1]) } ?? steps[0]
        }
        if up { return steps.first { $0 > current } }
        return steps.last { $0 < current } ?? steps[0]
    }
}
