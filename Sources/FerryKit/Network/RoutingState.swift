/// `RoutingState` is what the kernel told about interfaces and default routes, and the
/// `NetworkStatus` that follows from it. A value: `ReachabilityTracker` feeds it messages.
struct RoutingState: Sendable, Equatable {
    /// `links` are the interfaces by index.
    private(set) var links: [Int32: LinkRecord] = [:]
    /// `defaultRoutes` are the default routes of every table and type (filtered when judged).
    private(set) var defaultRoutes: Set<RouteRecord> = []

    /// `Change` says what applying a message changed.
    enum Change: Equatable {
        case none
        case changed
        /// An interface was taken down or up (IFF_UP changed) or removed: the kernel drops the
        /// IPv4 routes through a downed interface without announcing it, so the routes must be
        /// read again.
        case interfaceUpChanged
    }

    /// `apply(_:)` takes one message into the state.
    @discardableResult
    mutating func apply(_ message: NetlinkMessage) -> Change {
        switch message.body {
        case .link(let link, let removed):
            return apply(link: link, removed: removed)
        case .route(let route, let removed):
            return apply(route: route, removed: removed, replacing: message.flags & Netlink.flagReplace != 0)
        default:
            return .none
        }
    }

    private mutating func apply(link: LinkRecord, removed: Bool) -> Change {
        let old = links[link.index]
        if removed {
            guard old != nil else { return .none }
            links[link.index] = nil
            defaultRoutes = defaultRoutes.filter { !$0.outputInterfaces.contains(link.index) }
            return .interfaceUpChanged
        }
        var new = link
        if new.name == nil { new.name = old?.name }
        links[link.index] = new
        if let old, old.isUp != new.isUp { return .interfaceUpChanged }
        return old == new ? .none : .changed
    }

    private mutating func apply(route: RouteRecord, removed: Bool, replacing: Bool) -> Change {
        let before = defaultRoutes
        if removed {
            if defaultRoutes.remove(route) == nil {
                // The same route as the kernel knows it: family, table, tos and metric.
                defaultRoutes = defaultRoutes.filter { !$0.isSameSlot(as: route) }
            }
        } else {
            if replacing {
                defaultRoutes = defaultRoutes.filter { !$0.isSameSlot(as: route) }
            }
            defaultRoutes.insert(route)
        }
        return before == defaultRoutes ? .none : .changed
    }

    /// `status` is `.reachable` through the best usable default route (lowest metric, IPv4
    /// before IPv6, then lowest interface index) in the main table whose interface is up and
    /// running; `.notReachable` when there is none.
    var status: NetworkStatus {
        var best: (priority: UInt32, family: UInt8, index: Int32, link: LinkRecord)?
        for route in defaultRoutes where route.isMainUnicast {
            for index in route.outputInterfaces {
                guard let link = links[index], link.isUsable else { continue }
                let familyRank: UInt8 = route.family == Netlink.familyIPv4 ? 0 : 1
                if let current = best,
                   (current.priority, current.family, current.index) <= (route.priority, familyRank, index) {
                    continue
                }
                best = (route.priority, familyRank, index, link)
            }
        }
        guard let best else { return .notReachable }
        return .reachable(interface: best.link.name ?? "if\(best.index)")
    }
}

extension RouteRecord {
    /// `isSameSlot(as:)` is true when the kernel would take `other` for the same route (the
    /// one a replace overwrites): same family, table, tos and metric.
    func isSameSlot(as other: RouteRecord) -> Bool {
        family == other.family && table == other.table && tos == other.tos && priority == other.priority
    }
}
