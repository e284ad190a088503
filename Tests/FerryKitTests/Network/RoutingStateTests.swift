import Testing
@testable import FerryKit

/// Which default routes make the network reachable, and through which interface.
@Suite struct RoutingStateTests {
    private let usable = NetlinkBuilder.up | NetlinkBuilder.running | NetlinkBuilder.lowerUp

    private func state(_ datagrams: [UInt8]...) -> RoutingState {
        var state = RoutingState()
        for message in datagrams.flatMap({ NetlinkParser.messages(in: $0) }) {
            state.apply(message)
        }
        return state
    }

    private func link(_ index: Int32, _ name: String, flags: UInt32) -> [UInt8] {
        NetlinkBuilder.message(type: NetlinkBuilder.newLink, body: NetlinkBuilder.link(index: index, name: name, flags: flags))
    }

    private func route(removed: Bool = false, flags: UInt16 = 0, _ body: [UInt8]) -> [UInt8] {
        NetlinkBuilder.message(type: removed ? NetlinkBuilder.deleteRoute : NetlinkBuilder.newRoute, flags: flags, body: body)
    }

    @Test func theCapturedDumpsAreReachableThroughTheDefaultRoutesInterface() {
        let state = state(NetlinkFixtures.linkDumpFirst, NetlinkFixtures.linkDumpSecond, NetlinkFixtures.routeDump)
        #expect(state.status == .reachable(interface: "va"))
        #expect(self.state(NetlinkFixtures.linkDumpFirst, NetlinkFixtures.routeDump).status == .notReachable)  // va unknown
    }

    @Test func theCapturedDeletionAndLinkChangesMakeItUnreachable() {
        let base = [NetlinkFixtures.linkDumpFirst, NetlinkFixtures.linkDumpSecond, NetlinkFixtures.routeDump]
        for change in [NetlinkFixtures.defaultRouteDeleted, NetlinkFixtures.carrierLost, NetlinkFixtures.linkDown] {
            var state = RoutingState()
            for message in (base + [change]).flatMap({ NetlinkParser.messages(in: $0) }) {
                state.apply(message)
            }
            #expect(state.status == .notReachable)
        }
    }

    @Test func anIPv6DefaultRouteIsEnough() {
        let state = state(link(4, "wlan0", flags: usable),
                          route(NetlinkBuilder.route(family: 10, outputInterface: 4, gateway: Array(repeating: 1, count: 16))))
        #expect(state.status == .reachable(interface: "wlan0"))
    }

    @Test func onlyUnicastDefaultRoutesOfTheMainTableCount() {
        let up = link(2, "eth0", flags: usable)
        #expect(state(up, route(NetlinkBuilder.route(table: 100, outputInterface: 2))).status == .notReachable)
        #expect(state(up, route(NetlinkBuilder.route(type: 7, outputInterface: 2))).status == .notReachable)  // unreachable
        #expect(state(up, route(NetlinkBuilder.route(destinationLength: 8, outputInterface: 2))).status == .notReachable)
        #expect(state(up, route(NetlinkBuilder.route(outputInterface: 2))).status == .reachable(interface: "eth0"))
    }

    @Test func anInterfaceMustBeUpAndRunning() {
        let defaultRoute = route(NetlinkBuilder.route(outputInterface: 2))
        #expect(state(link(2, "eth0", flags: NetlinkBuilder.up), defaultRoute).status == .notReachable)
        #expect(state(link(2, "eth0", flags: NetlinkBuilder.running), defaultRoute).status == .notReachable)
        #expect(state(link(2, "eth0", flags: NetlinkBuilder.up | NetlinkBuilder.running), defaultRoute).status
            == .reachable(interface: "eth0"))
        let removed = NetlinkBuilder.message(type: NetlinkBuilder.deleteLink, body: NetlinkBuilder.link(index: 2, name: "eth0", flags: 0))
        let gone = state(link(2, "eth0", flags: usable), defaultRoute, removed)
        #expect(gone.status == .notReachable && gone.defaultRoutes.isEmpty)
    }

    @Test func theLowestMetricWinsThenIPv4() {
        let links = [link(2, "eth0", flags: usable), link(3, "wlan0", flags: usable), link(4, "usb0", flags: usable)]
        let routes = [
            route(NetlinkBuilder.route(outputInterface: 2, priority: 600)),
            route(NetlinkBuilder.route(family: 10, outputInterface: 3, priority: 100)),
            route(NetlinkBuilder.route(outputInterface: 4, priority: 100)),
        ]
        var state = RoutingState()
        for message in (links + routes).flatMap({ NetlinkParser.messages(in: $0) }) {
            state.apply(message)
        }
        #expect(state.status == .reachable(interface: "usb0"))
        for message in NetlinkParser.messages(in: route(removed: true, NetlinkBuilder.route(outputInterface: 4, priority: 100))) {
            state.apply(message)
        }
        #expect(state.status == .reachable(interface: "wlan0"))
    }

    @Test func aReplacedRouteLeavesNoStaleCopy() {
        let state = state(link(2, "eth0", flags: usable), link(3, "wlan0", flags: NetlinkBuilder.up),
                          route(NetlinkBuilder.route(outputInterface: 2, gateway: [10, 0, 0, 1])),
                          route(flags: 0x100, NetlinkBuilder.route(outputInterface: 3, gateway: [10, 0, 0, 2])))
        #expect(state.defaultRoutes.count == 1)
        #expect(state.status == .notReachable)  // wlan0 is not running
    }

    @Test func aMultipathRouteUsesItsLiveNextHops() {
        let links = [link(2, "eth0", flags: usable), link(3, "eth1", flags: usable)]
        let deadFirst = route(NetlinkBuilder.route(nextHops: [(index: 2, flags: 0x1), (index: 3, flags: 0)]))
        var state = RoutingState()
        for message in (links + [deadFirst]).flatMap({ NetlinkParser.messages(in: $0) }) {
            state.apply(message)
        }
        #expect(state.status == .reachable(interface: "eth1"))
    }

    @Test func anInterfaceTakenDownOrUpAsksForTheRoutesAgain() {
        var state = state(link(2, "eth0", flags: usable))
        let carrierOnly = NetlinkParser.messages(in: link(2, "eth0", flags: NetlinkBuilder.up))
        let down = NetlinkParser.messages(in: link(2, "eth0", flags: 0))
        #expect(carrierOnly.map { state.apply($0) } == [.changed])
        #expect(down.map { state.apply($0) } == [.interfaceUpChanged])
        #expect(down.map { state.apply($0) } == [.none])
    }
}
