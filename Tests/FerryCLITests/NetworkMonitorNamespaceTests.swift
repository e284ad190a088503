import FerryTestSupport
import Foundation
import Testing

/// `ferry _netmon` (the real `NetworkMonitor`) inside network namespaces the tests make: route
/// and link changes there are reported within two seconds. Only netlink is listened to; no
/// packet is sent.
@Suite(.enabled(if: NamespacePair.isAvailable,
                "network namespaces cannot be made here (needs root and iproute2's ip netns)"))
struct NetworkMonitorNamespaceTests {
    /// `limit` is the longest a change may take to be reported (300 ms of it settling).
    static let limit = Duration.seconds(2)

    /// `Monitor` is `ferry _netmon` running in a namespace, its lines read as they come.
    struct Monitor {
        let child: ChildProcess

        init(in namespace: String) throws {
            child = try ChildProcess.spawn(executable: "ip",
                                           arguments: ["netns", "exec", namespace, try ferryExecutableURL().path, "_netmon"])
        }

        var lines: [String] {
            Self.splitLines(child.standardOutput)
        }

        static func splitLines(_ output: Data) -> [String] {
            String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        }

        /// `expect(_:after:)` does `change`, then waits (at most `limit`) for the next line to be
        /// `line`; returns how long it took.
        @discardableResult
        func expect(_ line: String, after change: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) throws -> Duration {
            let before = lines.count
            try change()
            let start = ContinuousClock.now
            let arrived = child.waitForOutput(timeout: NetworkMonitorNamespaceTests.limit) { Self.splitLines($0).count > before }
            let took = ContinuousClock.now - start
            let next = lines.count > before ? lines[before] : nil
            #expect(arrived && next == line, "expected \(line) within 2 s, got \(next ?? "nothing") (all: \(lines))",
                    sourceLocation: sourceLocation)
            return took
        }

        /// `waitForFirstStatus()` waits (at most 5 s, the process starting) for a known status.
        func waitForFirstStatus() -> String? {
            _ = child.waitForOutput(timeout: .seconds(5)) { Self.splitLines($0).contains { $0 != "unknown" } }
            return lines.first { $0 != "unknown" }
        }
    }

    private static func report(_ what: String, _ took: Duration) {
        let milliseconds = Int((Double(took.components.attoseconds) / 1e15).rounded()) + Int(took.components.seconds) * 1000
        print("netns: \(what) reported in \(milliseconds) ms")
    }

    @Test func aDefaultRouteAddedDeletedAndRestoredIsReportedWithinTwoSeconds() throws {
        // Given two namespaces joined by veth, no default route, and the monitor in one of them
        let pair = try NamespacePair()
        defer { pair.remove() }
        let monitor = try Monitor(in: pair.client)
        defer { monitor.child.terminate(grace: .seconds(2)) }
        #expect(monitor.waitForFirstStatus() == "not reachable", "\(String(decoding: monitor.child.standardError, as: UTF8.self))")

        // When a default route is added, deleted and added again, Then each is reported in time
        Self.report("route added", try monitor.expect("reachable via va") {
            try pair.inClient("route", "add", "default", "via", "192.0.2.2", "dev", "va")
        })
        Self.report("route deleted", try monitor.expect("not reachable") {
            try pair.inClient("route", "del", "default")
        })
        Self.report("route restored", try monitor.expect("reachable via va") {
            try pair.inClient("route", "add", "default", "via", "192.0.2.2", "dev", "va")
        })
    }

    @Test func aLinkLosingItsCarrierOrTakenDownIsNotReachableUntilRestored() throws {
        let pair = try NamespacePair()
        defer { pair.remove() }
        try pair.inClient("route", "add", "default", "via", "192.0.2.2", "dev", "va")
        let monitor = try Monitor(in: pair.client)
        defer { monitor.child.terminate(grace: .seconds(2)) }
        #expect(monitor.waitForFirstStatus() == "reachable via va")

        // The far end goes down: va is up but no longer running; its route stays.
        Self.report("carrier lost", try monitor.expect("not reachable") { try pair.inPeer("link", "set", "vb", "down") })
        Self.report("carrier back", try monitor.expect("reachable via va") { try pair.inPeer("link", "set", "vb", "up") })

        // va itself goes down: the kernel drops its IPv4 routes without announcing it.
        Self.report("link down", try monitor.expect("not reachable") { try pair.inClient("link", "set", "va", "down") })
        try pair.inClient("link", "set", "va", "up")
        Self.report("link up and route restored", try monitor.expect("reachable via va") {
            try pair.inClient("route", "add", "default", "via", "192.0.2.2", "dev", "va")
        })
        #expect(!monitor.lines.dropFirst().contains("unknown"))
    }

    @Test func anIPv6DefaultRouteAloneIsReachable() throws {
        let pair = try NamespacePair()
        defer { pair.remove() }
        let monitor = try Monitor(in: pair.client)
        defer { monitor.child.terminate(grace: .seconds(2)) }
        #expect(monitor.waitForFirstStatus() == "not reachable")

        Self.report("IPv6 route added", try monitor.expect("reachable via va") {
            try pair.inClient("-6", "route", "add", "default", "via", "2001:db8::2", "dev", "va")
        })
        Self.report("IPv6 route deleted", try monitor.expect("not reachable") {
            try pair.inClient("-6", "route", "del", "default")
        })
    }
}
