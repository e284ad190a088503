/// `NetlinkParser` reads rtnetlink datagrams into `NetlinkMessage`s, checking every length
/// against the bytes at hand: truncated or garbage input ends the list early or yields
/// `.malformed`, never a crash.
enum NetlinkParser {
    /// `messages(in:)` is every complete message in `bytes` (one datagram), in order. A header
    /// whose length is too short or runs past the end stops the reading there.
    static func messages(in bytes: UnsafeRawBufferPointer) -> [NetlinkMessage] {
        let reader = ByteReader(bytes)
        var messages: [NetlinkMessage] = []
        var offset = 0
        while let length = reader.u32(at: offset).map(Int.init), length >= Netlink.headerLength,
              length <= bytes.count - offset,
              let type = reader.u16(at: offset + 4), let flags = reader.u16(at: offset + 6),
              let sequence = reader.u32(at: offset + 8), let portID = reader.u32(at: offset + 12) {
            let body = reader.slice(from: offset + Netlink.headerLength, count: length - Netlink.headerLength)
            messages.append(NetlinkMessage(type: type, flags: flags, sequence: sequence, portID: portID,
                                           body: parseBody(type: type, body)))
            offset += Netlink.align(length)
        }
        return messages
    }

    /// `messages(in:)` reads a datagram held in an array (tests, fixtures).
    static func messages(in bytes: [UInt8]) -> [NetlinkMessage] {
        bytes.withUnsafeBytes { messages(in: $0) }
    }

    private static func parseBody(type: UInt16, _ body: ByteReader) -> NetlinkMessage.Body {
        switch type {
        case Netlink.messageDone:
            return .done
        case Netlink.messageError:
            guard let code = body.i32(at: 0) else { return .malformed(type: type) }
            return .error(code: code == Int32.min ? Int32.max : -code)
        case Netlink.messageOverrun:
            return .overrun
        case Netlink.newLink, Netlink.deleteLink:
            guard let link = parseLink(body) else { return .malformed(type: type) }
            return .link(link, removed: type == Netlink.deleteLink)
        case Netlink.newAddress, Netlink.deleteAddress:
            return .addressChanged
        case Netlink.newRoute, Netlink.deleteRoute:
            switch parseRoute(body) {
            case .none: return .malformed(type: type)
            case .some(.none): return .ignored(type: type)
            case .some(.some(let route)): return .route(route, removed: type == Netlink.deleteRoute)
            }
        default:
            return .ignored(type: type)
        }
    }

    private static func parseLink(_ body: ByteReader) -> LinkRecord? {
        guard let index = body.i32(at: 4), let flags = body.u32(at: 8),
              let attributes = attributes(in: body, from: Netlink.linkInfoLength) else { return nil }
        var link = LinkRecord(index: index, name: nil, flags: flags)
        for (type, value) in attributes where type == Netlink.linkAttributeName {
            link.name = value.cString()
        }
        return link
    }

    /// `parseRoute(_:)` is `nil` for a malformed body, `.some(nil)` for a route that is not a
    /// default route (or a cache entry).
    private static func parseRoute(_ body: ByteReader) -> RouteRecord?? {
        guard let family = body.u8(at: 0), let destinationLength = body.u8(at: 1),
              let tos = body.u8(at: 3), let table = body.u8(at: 4), let type = body.u8(at: 7),
              let routeFlags = body.u32(at: 8),
              let attributes = attributes(in: body, from: Netlink.routeInfoLength) else { return nil }
        if destinationLength != 0 || routeFlags & Netlink.routeCloned != 0 { return .some(nil) }
        var route = RouteRecord(family: family, table: UInt32(table), type: type, tos: tos, priority: 0,
                                gateway: [], outputInterfaces: [])
        for (attribute, value) in attributes {
            switch attribute {
            case Netlink.routeAttributeTable:
                guard let table = value.u32(at: 0) else { return nil }
                route.table = table
            case Netlink.routeAttributeOutputInterface:
                guard let index = value.i32(at: 0) else { return nil }
                route.outputInterfaces = [index]
            case Netlink.routeAttributeGateway:
                route.gateway = value.bytes
            case Netlink.routeAttributePriority:
                guard let priority = value.u32(at: 0) else { return nil }
                route.priority = priority
            case Netlink.routeAttributeMultipath:
                guard let hops = nextHops(in: value) else { return nil }
                route.outputInterfaces = hops
            default:
                break
            }
        }
        return .some(route)
    }

    /// `nextHops(in:)` is the interfaces of an RTA_MULTIPATH's live next hops.
    private static func nextHops(in value: ByteReader) -> [Int32]? {
        var interfaces: [Int32] = []
        var offset = 0
        while offset < value.count {
            guard let length = value.u16(at: offset).map(Int.init), length >= Netlink.nextHopLength,
                  length <= value.count - offset,
                  let flags = value.u8(at: offset + 2), let index = value.i32(at: offset + 4) else { return nil }
            if flags & (Netlink.nextHopDead | Netlink.nextHopLinkDown) == 0 {
                interfaces.append(index)
            }
            offset += Netlink.align(length)
        }
        return interfaces
    }

    /// `attributes(in:from:)` is the (type, value) pairs of the rtattr list that starts at
    /// `start`; `nil` when the fixed part is short or an attribute runs past the end.
    private static func attributes(in body: ByteReader, from start: Int) -> [(UInt16, ByteReader)]? {
        guard body.count >= start else { return nil }
        var result: [(UInt16, ByteReader)] = []
        var offset = start
        while body.count - offset >= 4 {
            guard let length = body.u16(at: offset).map(Int.init), let type = body.u16(at: offset + 2),
                  length >= 4, length <= body.count - offset else { return nil }
            // The top bits are NLA_F_NESTED and NLA_F_NET_BYTEORDER.
            result.append((type & 0x3FFF, body.slice(from: offset + 4, count: length - 4)))
            offset += Netlink.align(length)
        }
        return result
    }
}
