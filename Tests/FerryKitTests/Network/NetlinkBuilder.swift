/// `NetlinkBuilder` writes rtnetlink messages byte by byte, with the kernel's layouts spelled
/// out here (not taken from the code under test), for cases the captured fixtures lack.
enum NetlinkBuilder {
    static let newLink: UInt16 = 16, deleteLink: UInt16 = 17, newRoute: UInt16 = 24, deleteRoute: UInt16 = 25
    static let done: UInt16 = 3, error: UInt16 = 2, overrun: UInt16 = 4
    static let up: UInt32 = 0x1, running: UInt32 = 0x40, lowerUp: UInt32 = 0x10000

    /// `message(type:flags:sequence:port:body:)` is a header (16 bytes) followed by `body`,
    /// padded to 4 bytes.
    static func message(type: UInt16, flags: UInt16 = 0, sequence: UInt32 = 0, port: UInt32 = 0, body: [UInt8]) -> [UInt8] {
        var bytes = le32(UInt32(16 + body.count)) + le16(type) + le16(flags) + le32(sequence) + le32(port) + body
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }

    /// `link(index:name:flags:)` is an ifinfomsg with IFLA_IFNAME.
    static func link(index: Int32, name: String?, flags: UInt32) -> [UInt8] {
        var body: [UInt8] = [0, 0] + le16(1) + le32(UInt32(bitPattern: index)) + le32(flags) + le32(0xFFFF_FFFF)
        if let name {
            body += attribute(3, Array(name.utf8) + [0])
        }
        return body
    }

    /// `route(...)` is an rtmsg with the attributes given (RTA_TABLE, RTA_OIF, RTA_GATEWAY,
    /// RTA_PRIORITY, RTA_MULTIPATH).
    static func route(
        family: UInt8 = 2, destinationLength: UInt8 = 0, table: UInt32 = 254, type: UInt8 = 1,
        outputInterface: Int32? = nil, gateway: [UInt8]? = nil, priority: UInt32? = nil,
        nextHops: [(index: Int32, flags: UInt8)]? = nil
    ) -> [UInt8] {
        var body: [UInt8] = [family, destinationLength, 0, 0, table < 256 ? UInt8(table) : 252, 3, 0, type] + le32(0)
        body += attribute(15, le32(table))
        if destinationLength > 0 {
            body += attribute(1, [10, 1, 0, 0])
        }
        if let gateway { body += attribute(5, gateway) }
        if let priority { body += attribute(6, le32(priority)) }
        if let outputInterface { body += attribute(4, le32(UInt32(bitPattern: outputInterface))) }
        if let nextHops {
            var hops: [UInt8] = []
            for hop in nextHops {
                hops += le16(8) + [hop.flags, 0] + le32(UInt32(bitPattern: hop.index))
            }
            body += attribute(9, hops)
        }
        return body
    }

    /// `attribute(_:_:)` is an rtattr: length, type, value, padded to 4 bytes.
    static func attribute(_ type: UInt16, _ value: [UInt8]) -> [UInt8] {
        var bytes = le16(UInt16(4 + value.count)) + le16(type) + value
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }

    static func le16(_ value: UInt16) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    static func le32(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) }
    }
}
