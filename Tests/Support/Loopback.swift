import FerryKit
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `Loopback` holds small socket helpers for 127.0.0.1: free ports, readiness checks and a
/// minimal HTTP/1.1 client for the test servers' control endpoints.
public enum Loopback {
    /// `Loopback.host` is the only address the harness binds or connects to.
    public static let host = "127.0.0.1"

    /// `HTTPReply` is a status, the header fields in arrival order and the body.
    public struct HTTPReply: Sendable {
        public let status: Int
        public let headers: [(name: String, value: String)]
        public let body: Data

        /// `header(_:)` is the first value of the named header (case-insensitive), or `nil`.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// `freePort()` asks the kernel for a free TCP port on 127.0.0.1 by binding port 0.
    /// Another process may take it before it is used: callers retry on "address in use".
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError.posix("socket") }
        defer { close(fd) }
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw TestSupportError.posix("bind 127.0.0.1:0") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(fd, $0, &length)
            }
        }
        guard named == 0 else { throw TestSupportError.posix("getsockname") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// `isAccepting(port:)` is `true` when a TCP connection to 127.0.0.1:`port` succeeds.
    public static func isAccepting(port: Int) -> Bool {
        guard let fd = try? connect(port: port) else { return false }
        close(fd)
        return true
    }

    /// `isAccepting(socketPath:)` is true when a Unix socket at `path` accepts a connection.
    public static func isAccepting(socketPath path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return SystemCall.connect(fd, toSocketAt: path)
    }

    /// `waitUntilAccepting(port:timeout:while:)` polls every 20 ms until the port accepts
    /// connections (`true`), `timeout` passes or `stillRunning` turns `false` (`false`).
    public static func waitUntilAccepting(
        port: Int, timeout: Duration, while stillRunning: () -> Bool
    ) -> Bool {
        waitUntil(timeout: timeout, while: stillRunning) { isAccepting(port: port) }
    }

    /// `waitUntil(timeout:while:_:)` polls `accepting` every 20 ms until it holds (`true`),
    /// `timeout` passes or `stillRunning` turns `false` (`false`).
    public static func waitUntil(timeout: Duration, while stillRunning: () -> Bool, _ accepting: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout.seconds)
        while Date() < deadline {
            if accepting() { return true }
            if !stillRunning() { return false }
            usleep(20_000)
        }
        return accepting()
    }

    /// `control(port:target:)` is a test server's control endpoint (`GET target`), which
    /// must answer 200 (anything else is an error with the server's words).
    public static func control(port: Int, target: String) throws -> HTTPReply {
        let reply = try request(port: port, target: target, timeout: .seconds(30))
        guard reply.status == 200 else {
            throw TestSupportError("\(target) answered \(reply.status): \(String(decoding: reply.body, as: UTF8.self))")
        }
        return reply
    }

    /// `request(port:method:target:headers:body:timeout:)` sends one HTTP/1.1 request with
    /// `Connection: close` to 127.0.0.1:`port` and reads the reply to the end.
    public static func request(
        port: Int,
        method: String = "GET",
        target: String,
        headers: [(String, String)] = [],
        body: Data = Data(),
        timeout: Duration = .seconds(10)
    ) throws -> HTTPReply {
        let fd = try connect(port: port)
        defer { close(fd) }
        var time = timeval(tv_sec: Int(timeout.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))

        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        try sendAll(fd, Data(head.utf8) + body)

        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw TestSupportError.posix("recv from 127.0.0.1:\(port)\(target)")
            }
        }
        return try parseReply(received, from: target)
    }

    // MARK: - Internals

    static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError.posix("socket") }
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let error = TestSupportError.posix("connect 127.0.0.1:\(port)")
            close(fd)
            throw error
        }
        return fd
    }

    private static func sendAll(_ fd: Int32, _ data: Data) throws {
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes { bytes in
                send(fd, bytes.baseAddress!.advanced(by: offset), data.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
            } else if errno != EINTR {
                throw TestSupportError.posix("send to 127.0.0.1")
            }
        }
    }

    private static func parseReply(_ data: Data, from target: String) throws -> HTTPReply {
        let separator = Data("\r\n\r\n".utf8)
        guard let end = data.range(of: separator) else {
            throw TestSupportError("incomplete HTTP reply from \(target) (\(data.count) bytes)")
        }
        let head = String(decoding: data[data.startIndex..<end.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw TestSupportError("bad status line from \(target): \(head.prefix(80))")
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Data(data[end.upperBound...])
        if let length = headers.first(where: { $0.name.lowercased() == "content-length" }).flatMap({ Int($0.value) }),
           length <= body.count {
            body = body.prefix(length)
        }
        return HTTPReply(status: status, headers: headers, body: body)
    }
}

/// `connect(2)`, under a name that `Loopback.connect(port:)` does not shadow.
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}
