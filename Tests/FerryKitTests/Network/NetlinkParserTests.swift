import Testing
@testable import FerryKit

/// The rtnetlink parser on datagrams a kernel sent, on built messages, and on broken input.
@Suite struct NetlinkParserTests {
    @Test func aRouteDumpYieldsItsDefaultRouteAndIgnoresTheOthers() {
        // Given the answer to a route dump, When it is parsed
        let messages = NetlinkParser.messages(in: NetlinkFixtures.routeDump)

        // Then every message is there, addressed to the dump, and only the default route is kept
        #expect(messages.count == 10)
        #expect(messages.allSatisfy { $0.sequence == 7 && $0.portID == NetlinkFixtures.routeDumpPort })
        let routes = messages.compactMap { message -> RouteRecord? in
            if case .route(let route, removed: false) = message.body { return route }
            return nil
        }
        #expect(routes == [RouteRecord(family: 2, table: 254, type: 1, tos: 0, priority: 0,
                                       gateway: [192, 0, 2, 2], outputInterfaces: [3])])
        #expect(messages.filter { if case .ignored(24) = $0.body { true } else { false } }.count == 9)
        #expect(NetlinkParser.messages(in: NetlinkFixtures.routeDumpDone).map(\.body) == [.done])
    }

    @Test func aLinkDumpYieldsNamesAndFlags() {
        let parsed = [NetlinkFixtures.linkDumpFirst, NetlinkFixtures.linkDumpSecond].flatMap {
            NetlinkParser.messages(in: $0)
        }.compactMap { message -> LinkRecord? in
            if case .link(let link, removed: false) = message.body { return link }
            return nil
        }
        #expect(parsed.map(\.index) == [1, 2, 3])
        #expect(parsed.map(\.name) == ["lo", "vb", "va"])
        #expect(parsed.map(\.isUsable) == [false, true, true])
        #expect(parsed[2].flags & NetlinkBuilder.lowerUp != 0)
    }

    @Test func aDeletionCarriesTheRouteAndTheSenderOfTheRequest() {
        let messages = NetlinkParser.messages(in: NetlinkFixtures.defaultRouteDeleted)

        #expect(messages.count == 1)
        #expect(messages[0].portID != 0 && messages[0].sequence != 0)  // ip's own request
        #expect(messages[0].body == .route(RouteRecord(family: 2, table: 254, type: 1, tos: 0, priority: 0,
                                                       gateway: [192, 0, 2, 2], outputInterfaces: [3]), removed: true))
    }

    @Test func linksGoingDownLoseTheirFlags() {
        func link(_ bytes: [UInt8]) -> LinkRecord? {
            guard case .link(let link, removed: false)? = NetlinkParser.messages(in: bytes).first?.body else { return nil }
            return link
        }
        let carrierLost = link(NetlinkFixtures.carrierLost)
        #expect(carrierLost?.name == "va" && carrierLost?.isUp == true && carrierLost?.isUsable == false)
        let down = link(NetlinkFixtures.linkDown)
        #expect(down?.name == "va" && down?.isUp == false)
        #expect(link(NetlinkFixtures.peerDown)?.name == "vb")
    }

    @Test func builtMessagesOfEveryKindAreRead() {
        let datagram = NetlinkBuilder.message(type: NetlinkBuilder.newRoute, flags: 0x100, body: NetlinkBuilder.route(
                family: 10, table: 254, gateway: Array(repeating: 0xFE, count: 16), priority: 1024,
                nextHops: [(index: 4, flags: 0), (index: 5, flags: 0x1), (index: 6, flags: 0x10)]))
            + NetlinkBuilder.message(type: NetlinkBuilder.deleteLink, body: NetlinkBuilder.link(index: 9, name: nil, flags: 0))
            + NetlinkBuilder.message(type: 20, body: [2, 24, 0, 0, 3, 0, 0, 0])
            + NetlinkBuilder.message(type: NetlinkBuilder.error, sequence: 3, body: NetlinkBuilder.le32(UInt32(bitPattern: -16)))
            + NetlinkBuilder.message(type: NetlinkBuilder.overrun, body: [])
            + NetlinkBuilder.message(type: 99, body: [1, 2, 3])

        let bodies = NetlinkParser.messages(in: datagram).map(\.body)

        #expect(bodies == [
            .route(RouteRecord(family: 10, table: 254, type: 1, tos: 0, priority: 1024,
                               gateway: Array(repeating: 0xFE, count: 16), outputInterfaces: [4]), removed: false),
            .link(LinkRecord(index: 9, name: nil, flags: 0), removed: true),
            .addressChanged,
            .error(code: 16),
            .overrun,
            .ignored(type: 99),
        ])
    }

    @Test func shortBodiesAreMalformedAndBadHeadersEndTheDatagram() {
        let shortRoute = NetlinkBuilder.message(type: NetlinkBuilder.newRoute, body: [2, 0, 0])
        let badAttribute = NetlinkBuilder.message(type: NetlinkBuilder.newLink,
                                                  body: NetlinkBuilder.link(index: 1, name: "x", flags: 1) + [0xFF, 0x00, 3, 0])
        let zeroAttribute = NetlinkBuilder.message(type: NetlinkBuilder.newRoute,
                                                   body: NetlinkBuilder.route(outputInterface: 2) + [0, 0, 4, 0])
        let badHop = NetlinkBuilder.message(type: NetlinkBuilder.newRoute,
                                            body: NetlinkBuilder.route() + NetlinkBuilder.attribute(9, [0, 0, 0, 0, 1, 0, 0, 0]))
        #expect(NetlinkParser.messages(in: shortRoute).map(\.body) == [.malformed(type: 24)])
        #expect(NetlinkParser.messages(in: badAttribute).map(\.body) == [.malformed(type: 16)])
        #expect(NetlinkParser.messages(in: zeroAttribute).map(\.body) == [.malformed(type: 24)])
        #expect(NetlinkParser.messages(in: badHop).map(\.body) == [.malformed(type: 24)])

        // A header shorter than itself, or longer than the datagram, ends the reading there.
        let done = NetlinkBuilder.message(type: NetlinkBuilder.done, body: [0, 0, 0, 0])
        #expect(NetlinkParser.messages(in: done + NetlinkBuilder.le32(8) + Array(repeating: 0, count: 12)).count == 1)
        #expect(NetlinkParser.messages(in: done + NetlinkBuilder.le32(4096) + Array(repeating: 0, count: 12)).count == 1)
        #expect(NetlinkParser.messages(in: []).isEmpty)
    }

    @Test func everyTruncationOfRealDatagramsIsReadWithoutACrash() {
        let datagrams = [NetlinkFixtures.routeDump, NetlinkFixtures.linkDumpFirst, NetlinkFixtures.defaultRouteDeleted]
        for datagram in datagrams {
            var lastCount = 0
            for length in 0...datagram.count {
                let messages = NetlinkParser.messages(in: Array(datagram[0..<length]))
                #expect(messages.count >= lastCount)  // a longer prefix never reads fewer messages
                lastCount = messages.count
            }
            #expect(lastCount == NetlinkParser.messages(in: datagram).count)
        }
    }

    @Test func garbageIsReadWithoutACrash() {
        var generator = SplitMix64(seed: 28)
        var messagesRead = 0
        for round in 0..<3000 {
            let length = Int(generator.next() % 512)
            var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if round % 2 == 0, bytes.count >= 16 {
                // A plausible header over garbage: the body's own lengths are what is tested.
                let types: [UInt16] = [16, 17, 20, 24, 25, 2, 3]
                bytes.replaceSubrange(0..<8, with: NetlinkBuilder.le32(UInt32(bytes.count))
                    + NetlinkBuilder.le16(types[Int(generator.next() % 7)]) + [0, 0])
            }
            messagesRead += NetlinkParser.messages(in: bytes).count
            // Real messages with one byte changed.
            var mutated = NetlinkFixtures.routeDump
            mutated[Int(generator.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: generator.next())
            messagesRead += NetlinkParser.messages(in: mutated).count
        }
        #expect(messagesRead > 3000)
    }
}

/// `SplitMix64` is a small seeded generator: the same garbage on every run.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
