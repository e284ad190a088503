import Testing
@testable import FerryKit

/// The monitor's logic without a socket: dumps, debouncing, re-reads, clock jumps.
@Suite struct ReachabilityTrackerTests {
    static let port: UInt32 = 4242
    static let settings = ReachabilityTracker.Settings(settleDelay: 0.3, clockCheckInterval: 2, clockJumpTolerance: 1)

    /// `at(_:)` is the clocks at `seconds` with nothing slept and the wall clock untouched.
    static func at(_ seconds: Double, asleep: Double = 0, wallStep: Double = 0) -> ClockReadings {
        ClockReadings(monotonic: seconds, boot: seconds + asleep, wall: 1_700_000_000 + seconds + wallStep)
    }

    /// `readdressed(_:sequence:)` is a captured datagram as if it answered this tracker's dump.
    static func readdressed(_ datagram: [UInt8], sequence: UInt32) -> [NetlinkMessage] {
        NetlinkParser.messages(in: datagram).map { message in
            var message = message
            message.sequence = sequence
            message.portID = port
            return message
        }
    }

    /// `started()` is a tracker that has read the captured dumps: reachable through `va`.
    static func started() -> ReachabilityTracker {
        var tracker = ReachabilityTracker(settings: settings, port: port)
        _ = tracker.start(at: at(0))
        _ = tracker.receive(readdressed(NetlinkFixtures.linkDumpFirst, sequence: 1), at: at(0.01))
        _ = tracker.receive(readdressed(NetlinkFixtures.linkDumpSecond, sequence: 1), at: at(0.01))
        _ = tracker.receive(readdressed(NetlinkFixtures.linkDumpDone, sequence: 1), at: at(0.01))
        _ = tracker.receive(readdressed(NetlinkFixtures.routeDump, sequence: 2), at: at(0.02))
        _ = tracker.receive(readdressed(NetlinkFixtures.routeDumpDone, sequence: 2), at: at(0.02))
        return tracker
    }

    private func notification(_ datagram: [UInt8]) -> [NetlinkMessage] {
        NetlinkParser.messages(in: datagram)
    }

    private func defaultRouteAdded() -> [NetlinkMessage] {
        notification(NetlinkBuilder.message(type: NetlinkBuilder.newRoute, sequence: 99, port: 777,
                                            body: NetlinkBuilder.route(outputInterface: 3, gateway: [192, 0, 2, 2])))
    }

    @Test func theLinksThenTheRoutesAreDumpedAndTheFirstStatusIsReportedAtOnce() {
        var tracker = ReachabilityTracker(settings: Self.settings, port: Self.port)
        #expect(tracker.start(at: Self.at(0)) == [.send(.links, sequence: 1)])
        #expect(tracker.receive(Self.readdressed(NetlinkFixtures.linkDumpFirst, sequence: 1), at: Self.at(0)) == [])
        #expect(tracker.receive(Self.readdressed(NetlinkFixtures.linkDumpSecond, sequence: 1), at: Self.at(0)) == [])
        #expect(tracker.receive(Self.readdressed(NetlinkFixtures.linkDumpDone, sequence: 1), at: Self.at(0))
            == [.send(.routes, sequence: 2)])
        #expect(tracker.receive(Self.readdressed(NetlinkFixtures.routeDump, sequence: 2), at: Self.at(0)) == [])
        #expect(tracker.reported == .unknown)
        #expect(tracker.receive(Self.readdressed(NetlinkFixtures.routeDumpDone, sequence: 2), at: Self.at(0.05))
            == [.report(.reachable(interface: "va"))])
        #expect(!tracker.isDumping)
    }

    @Test func aChangeIsReportedOnceItHasHeldForTheSettleDelay() {
        var tracker = Self.started()

        // When ip deletes the default route (its own sequence and port, not the dump's)
        #expect(tracker.receive(notification(NetlinkFixtures.defaultRouteDeleted), at: Self.at(1)) == [])

        // Then nothing is said before 300 ms, and "not reachable" then
        #expect(tracker.nextDeadline == 1.3)
        #expect(tracker.tick(at: Self.at(1.29)) == [])
        #expect(tracker.tick(at: Self.at(1.3)) == [.report(.notReachable)])
        #expect(tracker.tick(at: Self.at(1.6)) == [])

        // And a route coming back is reported the same way
        #expect(tracker.receive(defaultRouteAdded(), at: Self.at(2)) == [])
        #expect(tracker.tick(at: Self.at(2.31)) == [.report(.reachable(interface: "va"))])
    }

    @Test func aChangeUndoneWithinTheSettleDelayIsNeverReported() {
        var tracker = Self.started()
        #expect(tracker.receive(notification(NetlinkFixtures.defaultRouteDeleted), at: Self.at(1)) == [])
        #expect(tracker.receive(defaultRouteAdded(), at: Self.at(1.2)) == [])
        #expect(tracker.tick(at: Self.at(1.5)) == [])
        #expect(tracker.tick(at: Self.at(3)) == [])
        #expect(tracker.reported == .reachable(interface: "va"))
    }

    @Test func aLostCarrierIsReportedAndAnInterfaceTakenDownIsReadAgain() {
        var tracker = Self.started()
        #expect(tracker.receive(notification(NetlinkFixtures.carrierLost), at: Self.at(1)) == [])
        #expect(tracker.tick(at: Self.at(1.3)) == [.report(.notReachable)])

        // IPv4 routes through a downed interface go without a word from the kernel: read again.
        #expect(tracker.receive(notification(NetlinkFixtures.linkDown), at: Self.at(2)) == [.send(.links, sequence: 3)])
        #expect(tracker.isDumping)
    }

    @Test func anOverrunReadsEverythingAgainAfterTheDumpUnderWay() {
        var tracker = Self.started()
        let overrun = notification(NetlinkBuilder.message(type: NetlinkBuilder.overrun, body: []))
        #expect(tracker.receive(overrun, at: Self.at(1)) == [.send(.links, sequence: 3)])
        #expect(tracker.receive(overrun, at: Self.at(1.1)) == [])  // one dump at a time
        #expect(tracker.receive(Self.readdressed(NetlinkFixtures.linkDumpDone, sequence: 3), at: Self.at(1.2))
            == [.send(.routes, sequence: 4)])
        #expect(tracker.receive(Self.readdressed(NetlinkFixtures.routeDumpDone, sequence: 4), at: Self.at(1.3))
            == [.send(.links, sequence: 5)])
        // The fresh dumps found no interface and no route: the status follows them.
        #expect(tracker.tick(at: Self.at(1.61)) == [.report(.notReachable)])
    }

    @Test func aSuspendOrAWallClockStepReadsEverythingAgain() {
        var tracker = Self.started()
        #expect(tracker.tick(at: Self.at(1.5, asleep: 0.4)) == [])  // drift within tolerance
        #expect(tracker.tick(at: Self.at(2, asleep: 3600)) == [.send(.links, sequence: 3)])

        var stepped = Self.started()
        #expect(stepped.tick(at: Self.at(2, wallStep: -90)) == [.send(.links, sequence: 3)])
    }

    @Test func theClocksAreCheckedEvenWhenNothingHappens() {
        let tracker = Self.started()
        #expect(tracker.nextDeadline == 2)  // started at 0, every 2 s
        var quiet = ReachabilityTracker(
            settings: .init(settleDelay: 0.3, clockCheckInterval: nil, clockJumpTolerance: 1), port: Self.port)
        _ = quiet.start(at: Self.at(0))
        _ = quiet.receive(Self.readdressed(NetlinkFixtures.linkDumpDone, sequence: 1), at: Self.at(0))
        _ = quiet.receive(Self.readdressed(NetlinkFixtures.routeDumpDone, sequence: 2), at: Self.at(0))
        #expect(quiet.reported == .notReachable)
        #expect(quiet.nextDeadline == nil)
    }

    @Test func aRefusedDumpIsRetriedAndAnInterruptedOneRestarted() {
        var tracker = ReachabilityTracker(settings: Self.settings, port: Self.port)
        _ = tracker.start(at: Self.at(0))
        let busy = NetlinkBuilder.message(type: NetlinkBuilder.error, sequence: 1, port: Self.port,
                                          body: NetlinkBuilder.le32(UInt32(bitPattern: -16)))
        #expect(tracker.receive(notification(busy), at: Self.at(0.1)) == [])
        #expect(tracker.nextDeadline == 1.1)
        #expect(tracker.tick(at: Self.at(1.1)) == [.send(.links, sequence: 2)])

        // A dump whose contents changed while it was read (NLM_F_DUMP_INTR) is read again.
        let interruptedDone = NetlinkBuilder.message(type: NetlinkBuilder.done, flags: 0x12, sequence: 2, port: Self.port,
                                                     body: [0, 0, 0, 0])
        #expect(tracker.receive(notification(interruptedDone), at: Self.at(1.2)) == [.send(.links, sequence: 3)])

        // An unanswered dump is started again after its timeout.
        #expect(tracker.tick(at: Self.at(6.3)) == [.send(.links, sequence: 4)])
        #expect(tracker.reported == .unknown)
    }

    @Test func repliesToOtherPortsOrOldDumpsAreNotTakenForTheDump() {
        var tracker = ReachabilityTracker(settings: Self.settings, port: Self.port)
        _ = tracker.start(at: Self.at(0))
        let otherPort = NetlinkBuilder.message(type: NetlinkBuilder.done, sequence: 1, port: 9, body: [0, 0, 0, 0])
        let oldDump = NetlinkBuilder.message(type: NetlinkBuilder.done, sequence: 77, port: Self.port, body: [0, 0, 0, 0])
        #expect(tracker.receive(notification(otherPort + oldDump), at: Self.at(0.1)) == [])
        #expect(tracker.isDumping && tracker.reported == .unknown)
    }

    @Test func aZeroSettleDelayReportsEveryChangeAtOnce() {
        var tracker = ReachabilityTracker(
            settings: .init(settleDelay: 0, clockCheckInterval: 2, clockJumpTolerance: 1), port: Self.port)
        _ = tracker.start(at: Self.at(0))
        _ = tracker.receive(Self.readdressed(NetlinkFixtures.linkDumpSecond, sequence: 1), at: Self.at(0))
        _ = tracker.receive(Self.readdressed(NetlinkFixtures.linkDumpDone, sequence: 1), at: Self.at(0))
        _ = tracker.receive(Self.readdressed(NetlinkFixtures.routeDump + NetlinkFixtures.routeDumpDone, sequence: 2), at: Self.at(0))
        #expect(tracker.reported == .reachable(interface: "va"))
        #expect(tracker.receive(notification(NetlinkFixtures.defaultRouteDeleted), at: Self.at(1)) == [.report(.notReachable)])
    }
}
