/// `NetlinkMessage` is one rtnetlink message as `NetlinkParser` read it: its header fields and
/// what `NetworkMonitor` needs from its body.
struct NetlinkMessage: Sendable, Equatable {
    /// `Body` is the part of a message that matters for reachability.
    enum Body: Sendable, Equatable {
        /// RTM_NEWLINK (`removed` false) or RTM_DELLINK.
        case link(LinkRecord, removed: Bool)
        /// RTM_NEWROUTE (`removed` false) or RTM_DELROUTE, for a default route only; other
        /// routes are `.ignored`.
        case route(RouteRecord, removed: Bool)
        /// RTM_NEWADDR or RTM_DELADDR: no state kept, a hint that something moved.
        case addressChanged
        /// NLMSG_DONE: the end of a dump.
        case done
        /// NLMSG_ERROR: `code` is a positive errno, 0 for an acknowledgement.
        case error(code: Int32)
        /// NLMSG_OVERRUN: messages were lost.
        case overrun
        /// A message of a known type whose body is too short or inconsistent.
        case malformed(type: UInt16)
        /// Anything else (other message types, routes that are not default routes).
        case ignored(type: UInt16)
    }

    /// `type` is `nlmsg_type`.
    var type: UInt16
    /// `flags` is `nlmsg_flags` (NLM_F_MULTI, NLM_F_DUMP_INTR, NLM_F_REPLACE...).
    var flags: UInt16
    /// `sequence` is `nlmsg_seq`: the request's for dump replies, 0 for notifications.
    var sequence: UInt32
    /// `portID` is `nlmsg_pid`: the port a dump reply is addressed to, or for a notification
    /// the port of the process whose request caused it (0 for the kernel's own).
    var portID: UInt32
    var body: Body

    /// `wasInterrupted` is true when a dump's contents changed while it was read
    /// (NLM_F_DUMP_INTR): the dump must be read again.
    var wasInterrupted: Bool { flags & Netlink.flagDumpInterrupted != 0 }
}

/// `LinkRecord` is one network interface as an RTM_NEWLINK message describes it.
struct LinkRecord: Sendable, Equatable {
    /// `index` is `ifi_index`.
    var index: Int32
    /// `name` is IFLA_IFNAME; `nil` when the message carries none.
    var name: String?
    /// `flags` is `ifi_flags` (IFF_UP, IFF_RUNNING, IFF_LOWER_UP...).
    var flags: UInt32

    /// `isUp` is IFF_UP (administratively up).
    var isUp: Bool { flags & Netlink.interfaceUp != 0 }
    /// `isUsable` is IFF_UP and IFF_RUNNING (operationally up: carrier, not dormant).
    var isUsable: Bool { isUp && flags & Netlink.interfaceRunning != 0 }
}

/// `RouteRecord` is one default route (destination length 0) as an RTM_NEWROUTE or
/// RTM_DELROUTE message describes it.
struct RouteRecord: Sendable, Hashable {
    /// `family` is `rtm_family` (AF_INET or AF_INET6).
    var family: UInt8
    /// `table` is RTA_TABLE when present, else `rtm_table`.
    var table: UInt32
    /// `type` is `rtm_type` (RTN_UNICAST for a route that carries traffic).
    var type: UInt8
    /// `tos` is `rtm_tos`.
    var tos: UInt8
    /// `priority` is RTA_PRIORITY (the metric), 0 when absent.
    var priority: UInt32
    /// `gateway` is RTA_GATEWAY's address bytes, empty when absent.
    var gateway: [UInt8]
    /// `outputInterfaces` are RTA_OIF, or the live next hops of RTA_MULTIPATH.
    var outputInterfaces: [Int32]

    /// `isMainUnicast` is true for a route in the main table that carries traffic (not
    /// unreachable, blackhole or prohibit).
    var isMainUnicast: Bool { table == Netlink.mainTable && type == Netlink.unicastRoute }
}
