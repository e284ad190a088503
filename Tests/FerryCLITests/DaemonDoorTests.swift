import FerryTestSupport
import Foundation
import Testing

/// Issue 47, as a user meets it: a real `ferry daemon` flooded with idle TCP connections
/// (more than its cap of 256) closes those past the cap at once and the rest after its header
/// timeout, and keeps answering the command line on `control.sock` throughout. (A server run
/// inside the test process would share its two cooperative threads with every other test.)
@Suite(.serialized) struct DaemonDoorTests {
    @Test func aFloodOfIdleConnectionsLeavesControlSocketAnswering() throws {
        // Given a daemon with three queued tasks (paused: nothing runs).
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let added = try runFerry(["add", "--paused", "-d", state.path, "http://127.0.0.1:9/a.bin", "http://127.0.0.1:9/b.bin",
                                  "http://127.0.0.1:9/c.bin"], stateDirectory: state.url)
        #expect(added.exitStatus == 0, "\(added.stderr)")
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { _ = daemon.stop() }

        // When 300 connections to its TCP port are opened and send nothing.
        var flood: [Int32] = []
        defer { flood.forEach { close($0) } }
        for _ in 0..<300 {
            guard let fd = Self.connect(port: daemon.port) else { break }
            flood.append(fd)
        }
        #expect(flood.count == 300)

        // Then those past the cap are closed by the daemon, and ferry list answers from
        // control.sock with every task, while the flood holds the rest.
        #expect(daemon.waitUntil(timeout: .seconds(30)) { flood.filter(Self.isClosedByPeer).count >= 300 - 256 })
        let listed = try runFerry(["list"], stateDirectory: state.url, timeout: .seconds(30))
        #expect(listed.exitStatus == 0, "\(listed.stderr)")
        #expect(["a.bin", "b.bin", "c.bin"].allSatisfy { listed.stdout.contains($0) }, "\(listed.stdout)")
        #expect(daemon.process.isRunning)

        // And the connections that still send nothing are closed after the 30 s header timeout.
        #expect(daemon.waitUntil(timeout: .seconds(90)) { flood.allSatisfy(Self.isClosedByPeer) })
        #expect(try runFerry(["list"], stateDirectory: state.url, timeout: .seconds(30)).exitStatus == 0)
    }

    static func connect(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// `isClosedByPeer(_:)` is true when the daemon has closed `fd`.
    static func isClosedByPeer(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let read = recv(fd, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
        return read == 0 || (read < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }
}
