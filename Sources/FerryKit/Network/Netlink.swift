/// `Netlink` holds the rtnetlink constants and layouts `NetworkMonitor` uses, from the kernel's
/// `<linux/netlink.h>` and `<linux/rtnetlink.h>` (a stable ABI; Glibc does not import them).
enum Netlink {
    // Message header (struct nlmsghdr): u32 length, u16 type, u16 flags, u32 seq, u32 pid.
    static let headerLength = 16
    static let messageNoop: UInt16 = 1
    static let messageError: UInt16 = 2
    static let messageDone: UInt16 = 3
    static let messageOverrun: UInt16 = 4

    static let flagRequest: UInt16 = 0x1
    static let flagMulti: UInt16 = 0x2
    static let flagDumpInterrupted: UInt16 = 0x10
    /// NLM_F_REPLACE on an RTM_NEWROUTE notification: the route replaced another (not announced).
    static let flagReplace: UInt16 = 0x100
    static let flagDump: UInt16 = 0x300

    static let newLink: UInt16 = 16
    static let deleteLink: UInt16 = 17
    static let getLink: UInt16 = 18
    static let newAddress: UInt16 = 20
    static let deleteAddress: UInt16 = 21
    static let newRoute: UInt16 = 24
    static let deleteRoute: UInt16 = 25
    static let getRoute: UInt16 = 26

    // Multicast groups (RTMGRP_*).
    static let groupLink: UInt32 = 0x1
    static let groupIPv4Address: UInt32 = 0x10
    static let groupIPv4Route: UInt32 = 0x40
    static let groupIPv6Address: UInt32 = 0x100
    static let groupIPv6Route: UInt32 = 0x400
    /// `monitoredGroups` are links, addresses and routes of both families.
    static let monitoredGroups = groupLink | groupIPv4Address | groupIPv6Address | groupIPv4Route | groupIPv6Route

    // struct ifinfomsg: u8 family, u8 pad, u16 type, i32 index, u32 flags, u32 change.
    static let linkInfoLength = 16
    static let linkAttributeName: UInt16 = 3  // IFLA_IFNAME
    static let interfaceUp: UInt32 = 0x1  // IFF_UP
    static let interfaceRunning: UInt32 = 0x40  // IFF_RUNNING
    static let interfaceLowerUp: UInt32 = 0x10000  // IFF_LOWER_UP

    // struct rtmsg: u8 family, dst_len, src_len, tos, table, protocol, scope, type; u32 flags.
    static let routeInfoLength = 12
    static let routeAttributeDestination: UInt16 = 1  // RTA_DST
    static let routeAttributeOutputInterface: UInt16 = 4  // RTA_OIF
    static let routeAttributeGateway: UInt16 = 5  // RTA_GATEWAY
    static let routeAttributePriority: UInt16 = 6  // RTA_PRIORITY
    static let routeAttributeMultipath: UInt16 = 9  // RTA_MULTIPATH
    static let routeAttributeTable: UInt16 = 15  // RTA_TABLE
    static let mainTable: UInt32 = 254  // RT_TABLE_MAIN
    static let unicastRoute: UInt8 = 1  // RTN_UNICAST
    static let routeCloned: UInt32 = 0x200  // RTM_F_CLONED: a cache entry, not a route

    // struct rtnexthop: u16 len, u8 flags, u8 hops, i32 ifindex; then attributes.
    static let nextHopLength = 8
    static let nextHopDead: UInt8 = 0x1  // RTNH_F_DEAD
    static let nextHopLinkDown: UInt8 = 0x10  // RTNH_F_LINKDOWN

    static let familyIPv4: UInt8 = 2  // AF_INET
    static let familyIPv6: UInt8 = 10  // AF_INET6

    /// `align(_:)` is NLMSG_ALIGN / RTA_ALIGN / RTNH_ALIGN: rounds up to 4 bytes.
    static func align(_ length: Int) -> Int {
        (length + 3) & ~3
    }
}
