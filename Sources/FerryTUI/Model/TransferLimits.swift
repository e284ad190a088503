/// `TransferLimits` are the engine's concurrency limits as the header shows them and the
/// user changes them: transfers at once, and at once to one host.
public struct TransferLimits: Sendable, Hashable {
    /// `range` is what either limit may be set to.
    public static let range = 1...999

    /// `maximumConcurrent` is the most transfers at once.
    public var maximumConcurrent: Int
    /// `maximumPerHost` is the most transfers at once to one host and port.
    public var maximumPerHost: Int

    /// `init(maximumConcurrent:maximumPerHost:)` makes limits, each kept in `range`.
    public init(maximumConcurrent: Int, maximumPerHost: Int) {
        self.maximumConcurrent = min(max(maximumConcurrent, Self.range.lowerBound), Self.range.upperBound)
        self.maximumPerHost = min(max(maximumPerHost, Self.range.lowerBound), Self.range.upperBound)
    }

    /// `label` is the header's text, for example "5 at once · 4/host".
    public var label: String {
        "\(maximumConcurrent) at once · \(maximumPerHost)/host"
    }
}
