/// `NetworkStatus` is what `NetworkMonitor` says about the network: AFNetworkReachabilityStatus
/// on Linux.
public enum NetworkStatus: Sendable, Hashable, CustomStringConvertible {
    /// Nothing is known yet, or netlink is unavailable (the caller falls back to retries).
    case unknown
    /// No default route (IPv4 or IPv6, main table) leaves through an interface that is up and
    /// running.
    case notReachable
    /// A default route leaves through `interface` (its name, such as `eth0`), which is up and
    /// running.
    case reachable(interface: String)

    /// `isReachable` is true for `.reachable`.
    public var isReachable: Bool {
        if case .reachable = self { return true }
        return false
    }

    /// `description` is `unknown`, `not reachable` or `reachable via NAME`.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .notReachable: "not reachable"
        case .reachable(let interface): "reachable via \(interface)"
        }
    }
}
