import FerryQueue
import Foundation
import Testing
@testable import FerryRPC

/// Without the token nobody can lock the daemon's door: idle connections to the TCP port are
/// closed past a cap and after the header timeout, and `control.sock` answers throughout.
struct ConnectionGuardTests {
    @Test func anIdleConnectionFloodIsCappedAndTimedOut() async throws {
        // Given a server on a TCP port (cap 10) and a control socket (cap 4), idle timeout 1 s.
        let fixture = try EngineFixture()
        defer { fixture.close() }
        let directory = fixture.directory
        let server = RPCServer(dispatcher: fixture.dispatcher(secret: "a-long-enough-secret"),
                               limits: RPCServer.Limits(idleTimeout: .seconds(1), tcpConnections: 10, localConnections: 4))
        let port = try Socket.freePort()
        let socketPath = directory + "/control.sock"
        let running = Task {
            try await server.run(on: [RPCEndpoint(.unixSocket(path: socketPath)), RPCEndpoint(.tcp(host: "127.0.0.1", port: port))],
                                 onListening: { _ in }, onFailure: { _, _ in })
        }
        defer { running.cancel() }
        #expect(try await Socket.waitUntil(timeout: .seconds(60)) {
            guard let fd = try? Socket.connect(port: port) else { return false }
            close(fd)
            return true
        })

        // When 40 connections are opened to the TCP port and send nothing.
        var flood: [Int32] = []
        defer { flood.forEach { close($0) } }
        for _ in 0..<40 {
            flood.append(try Socket.connect(port: port))
        }

        // Then every flooding connection is closed by the server within a few seconds: those
        // past the cap at once, the others after the idle timeout.
        // (control.sock's answers under the flood are checked against a real daemon in
        // DaemonDoorTests: here the server's handlers share this test process's two threads
        // with every other test, which can hold them for minutes.)
        #expect(try await Socket.waitUntil(timeout: .seconds(30)) { flood.allSatisfy { Socket.isClosedByPeer($0) } })
    }
}

/// `Socket` is the few raw socket calls the test makes as an attacker and as the CLI would.
private enum Socket {
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard named else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        return fd
    }

    /// `isClosedByPeer(_:)` is true when the server has closed `fd` (a read gives end of file
    /// or an error at once).
    static func isClosedByPeer(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let read = recv(fd, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
        return read == 0 || (read < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// `ask(socketPath:)` posts `aria2.getVersion` to the control socket and is the answer,
    /// or `nil` when none came within 1 s.
    static func ask(socketPath: String) -> String? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in socketPath.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { return nil }
        let body = #"{"jsonrpc":"2.0","id":1,"method":"aria2.getVersion"}"#
        let request = "POST /jsonrpc HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        guard Array(request.utf8).withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.utf8.count else { return nil }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<64 {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            answer += buffer[0..<count]
        }
        return answer.isEmpty ? nil : String(decoding: answer, as: UTF8.self)
    }

    /// `waitUntil(timeout:_:)` checks `condition` every 20 ms until it holds or `timeout` passes.
    static func waitUntil(timeout: Duration, _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }
}
