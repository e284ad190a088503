import CFerrySystem
import Glibc

/// `NetlinkSocket` is an open, non-blocking rtnetlink socket bound to the groups
/// `NetworkMonitor` listens to. It closes its descriptor when it goes away.
///
/// Threads: `send(_:)` and `receive(into:)` are called by one thread at a time (the monitor
/// calls them with its lock held); the descriptor itself never changes.
final class NetlinkSocket: Sendable {
    /// `Received` is the outcome of one `receive(into:)`.
    enum Received: Equatable {
        /// A datagram of `count` bytes from `sender` (0: the kernel).
        case datagram(count: Int, sender: UInt32)
        /// A datagram longer than the buffer: it was cut off and is lost.
        case truncated
        /// Nothing is pending.
        case nothing
        /// The kernel dropped messages (ENOBUFS): the state must be read again.
        case overrun
        /// Any other error (errno).
        case failed(Int32)
    }

    /// `receiveBufferSize` is the socket buffer asked for: room for bursts of changes.
    static let receiveBufferSize: Int32 = 1 << 20

    let descriptor: Int32
    /// `port` is the netlink port id the kernel gave the socket.
    let port: UInt32

    private init(descriptor: Int32, port: UInt32) {
        self.descriptor = descriptor
        self.port = port
    }

    deinit {
        close(descriptor)
    }

    /// `open(groups:)` opens and binds the socket, or says why it could not.
    static func open(groups: UInt32) -> Result<NetlinkSocket, NetlinkUnavailable> {
        var port: UInt32 = 0
        let descriptor = csystem_netlink_open(groups, receiveBufferSize, &port)
        guard descriptor >= 0 else { return .failure(NetlinkUnavailable(operation: "socket", code: errno)) }
        return .success(NetlinkSocket(descriptor: descriptor, port: port))
    }

    /// `send(_:)` sends one request to the kernel; `nil` when sent, else the errno.
    func send(_ bytes: [UInt8]) -> Int32? {
        let sent = SystemCall.retrying { bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) } }
        if sent == bytes.count { return nil }
        return sent < 0 ? errno : EMSGSIZE
    }

    /// `receive(into:)` reads one pending datagram without blocking.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> Received {
        while true {
            var sender: UInt32 = 0
            let count = csystem_netlink_receive(descriptor, buffer.baseAddress, buffer.count, &sender)
            if count > buffer.count { return .truncated }
            if count >= 0 { return .datagram(count: count, sender: sender) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .nothing
            case ENOBUFS: return .overrun
            case let code: return .failed(code)
            }
        }
    }
}

/// `NetlinkUnavailable` says why there is no netlink socket: the call that failed and its errno.
struct NetlinkUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    var operation: String
    var code: Int32

    var description: String {
        "netlink is unavailable (\(operation): \(String(cString: strerror(code))))"
    }
}
