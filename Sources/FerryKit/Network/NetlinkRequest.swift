/// `NetlinkRequest` builds the dump requests `NetworkMonitor` sends to the kernel.
enum NetlinkRequest {
    /// `Dump` is what a dump request asks for.
    enum Dump: Sendable, Equatable {
        /// Every interface (RTM_GETLINK).
        case links
        /// Every route of both families (RTM_GETROUTE, AF_UNSPEC).
        case routes
    }

    /// `bytes(for:sequence:)` is the request datagram: a header with NLM_F_REQUEST | NLM_F_DUMP
    /// and an empty `ifinfomsg` or `rtmsg` (family AF_UNSPEC).
    static func bytes(for dump: Dump, sequence: UInt32) -> [UInt8] {
        let (type, bodyLength) = switch dump {
        case .links: (Netlink.getLink, Netlink.linkInfoLength)
        case .routes: (Netlink.getRoute, Netlink.routeInfoLength)
        }
        let length = Netlink.headerLength + bodyLength
        var bytes = [UInt8](repeating: 0, count: length)
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt32(length), toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: type, toByteOffset: 4, as: UInt16.self)
            raw.storeBytes(of: Netlink.flagRequest | Netlink.flagDump, toByteOffset: 6, as: UInt16.self)
            raw.storeBytes(of: sequence, toByteOffset: 8, as: UInt32.self)
        }
        return bytes
    }
}
