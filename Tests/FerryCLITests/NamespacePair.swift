import FerryTestSupport
import Foundation
import Synchronization

/// `NamespacePair` is two network namespaces made for one test and removed by it: `client`
/// and `peer`, joined by a veth pair (`va` in the client, `vb` in the peer), with documentation
/// addresses (192.0.2.0/24, 2001:db8::/64) that exist only inside them. Nothing is routed out
/// of them; the host's own network is never touched.
final class NamespacePair: Sendable {
    let client: String
    let peer: String

    private static let counter = Atomic<Int>(0)

    /// `unavailableReason` is why namespaces cannot be made here (`nil` when they can): it
    /// makes and removes one.
    static let unavailableReason: String? = {
        guard getuid() == 0 else { return "making network namespaces needs root" }
        let probe = "ferry-probe-\(getpid())"
        do {
            let made = try run(executable: "ip", arguments: ["netns", "add", probe], timeout: .seconds(10))
            _ = try? run(executable: "ip", arguments: ["netns", "del", probe], timeout: .seconds(10))
            return made.succeeded ? nil : "ip netns add failed: \(made.stderr)"
        } catch {
            return "iproute2's ip cannot run: \(error)"
        }
    }()

    /// `isAvailable` is true when namespaces can be made; otherwise it prints why once.
    static let isAvailable: Bool = {
        guard let reason = unavailableReason else { return true }
        print("network namespace tests skipped: \(reason)")
        return false
    }()

    /// `init()` makes both namespaces and the link between them, both ends up, no route
    /// beyond the link's own; it removes what it made if a step fails.
    init() throws {
        let number = Self.counter.add(1, ordering: .relaxed).newValue
        client = "ferry-\(getpid())-\(number)c"
        peer = "ferry-\(getpid())-\(number)p"
        do {
            try Self.ip(["netns", "add", client])
            try Self.ip(["netns", "add", peer])
            try inClient("link", "add", "va", "type", "veth", "peer", "name", "vb", "netns", peer)
            try inClient("addr", "add", "192.0.2.1/24", "dev", "va")
            try inClient("addr", "add", "2001:db8::1/64", "dev", "va", "nodad")
            try inPeer("addr", "add", "192.0.2.2/24", "dev", "vb")
            try inPeer("addr", "add", "2001:db8::2/64", "dev", "vb", "nodad")
            try inClient("link", "set", "va", "up")
            try inPeer("link", "set", "vb", "up")
        } catch {
            remove()
            throw error
        }
    }

    /// `remove()` deletes both namespaces (and with them the veth pair); errors are ignored.
    func remove() {
        for name in [client, peer] {
            _ = try? run(executable: "ip", arguments: ["netns", "del", name], timeout: .seconds(10))
        }
    }

    /// `inClient(_:)` runs `ip -n CLIENT ARGS...`.
    func inClient(_ arguments: String...) throws {
        try Self.ip(["-n", client] + arguments)
    }

    /// `inPeer(_:)` runs `ip -n PEER ARGS...`.
    func inPeer(_ arguments: String...) throws {
        try Self.ip(["-n", peer] + arguments)
    }

    private static func ip(_ arguments: [String]) throws {
        let result = try run(executable: "ip", arguments: arguments, timeout: .seconds(10))
        guard result.succeeded else {
            throw TestSupportError("ip \(arguments.joined(separator: " ")): \(result.termination) \(result.stderr)")
        }
    }
}
