import Foundation
import Glibc
import Synchronization
import Testing
@testable import FerryKit

/// The monitor with its socket: where netlink is missing, and on this machine's own network,
/// only read (the namespace tests in FerryCLITests change routes).
@Suite struct NetworkMonitorTests {
    @Test func withoutNetlinkTheStatusStaysUnknownAndTheMonitorSaysWhy() async {
        // Given a monitor whose socket could not be made
        let monitor = NetworkMonitor(configuration: .init(),
                                     socket: .failure(NetlinkUnavailable(operation: "socket", code: EAFNOSUPPORT)))

        // Then it says why, has no descriptor, and its stream says "unknown" and ends
        #expect(monitor.unavailableReason?.hasPrefix("netlink is unavailable (socket: ") == true)
        #expect(monitor.fileDescriptor == -1)
        #expect(monitor.timeout == nil)
        #expect(monitor.handleReadable() == nil && monitor.handleTimeout() == nil)
        monitor.start { _ in Issue.record("no status may be reported") }
        var seen: [NetworkStatus] = []
        for await status in monitor.statuses() {
            seen.append(status)
        }
        #expect(seen == [.unknown])
        #expect(monitor.status == .unknown)
    }

    @Test func inAPollLoopTheFirstDumpGivesAKnownStatus() throws {
        let monitor = NetworkMonitor()
        try #require(monitor.unavailableReason == nil, "netlink: \(monitor.unavailableReason ?? "")")
        #expect(monitor.fileDescriptor >= 0)

        // When the caller polls the descriptor and hands over what is readable
        let deadline = ContinuousClock.now + .seconds(2)
        var reported: NetworkStatus?
        while reported == nil, ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: monitor.fileDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 100) > 0 {
                reported = monitor.handleReadable()
            }
        }

        // Then the status is known (what it is depends on this machine) and a clock check is due
        #expect(reported != nil && reported != .unknown)
        #expect(monitor.status == reported)
        #expect(try #require(monitor.timeout) <= NetworkMonitor.Configuration.defaultClockCheckInterval)
    }

    @Test func onItsOwnThreadItReportsToTheHandlerAndTheStreamUntilStopped() async throws {
        let monitor = NetworkMonitor()
        try #require(monitor.unavailableReason == nil, "netlink: \(monitor.unavailableReason ?? "")")
        let handled = Mutex<[(status: NetworkStatus, after: Duration)]>([])
        let stream = monitor.statuses()
        let started = ContinuousClock.now
        monitor.start { status in handled.withLock { $0.append((status, ContinuousClock.now - started)) } }

        // The stream starts with the status at hand, then the first known one. (Its consumer may
        // wait for a free thread of the shared pool: the time is taken on the monitor's thread.)
        var seen: [NetworkStatus] = []
        for await status in stream {
            seen.append(status)
            if status != .unknown { break }
        }
        #expect(seen.first == .unknown && seen.count == 2)
        let first = try #require(handled.withLock { $0.first })
        #expect(first.status == seen.last)
        #expect(first.after < .seconds(2))

        // When stopped, a new stream gets the status and ends.
        monitor.stop()
        var after: [NetworkStatus] = []
        for await status in monitor.statuses() {
            after.append(status)
        }
        #expect(after == [seen[1]])
    }
}
