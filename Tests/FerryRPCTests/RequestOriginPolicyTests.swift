import Testing
@testable import FerryRPC

/// The TCP door's first check, without a socket: which `Host` and `Origin` values reach the RPC.
struct RequestOriginPolicyTests {
    let policy = RequestOriginPolicy(port: 6800)

    @Test func loopbackHostsWithoutAnOriginPass() {
        // Given the daemon's policy on port 6800, when a script (no Origin) names a loopback host,
        // with any port (an SSH tunnel's own) or none, then it passes.
        for host in ["127.0.0.1:6800", "127.0.0.1", "localhost:6800", "LocalHost", "[::1]:6800", "[::1]", "127.0.0.1:7000"] {
            #expect(policy.refusal(hosts: [host], origins: []) == nil, "\(host)")
        }
    }

    @Test func foreignMissingDoubledOrMalformedHostsAreRefused() {
        // When the Host is another name (a rebound DNS name), none, two, or not a loopback
        // address as written, then the request is refused for its Host.
        let refused: [[String]] = [
            ["evil.example"], ["evil.example:6800"], [], ["127.0.0.1:6800", "evil.example"], [""], ["::1"],
            ["127.0.0.2:6800"], ["localhost."], ["127.0.0.1:"], ["127.0.0.1:abc"], ["127.0.0.1:99999"],
            ["user@127.0.0.1"], ["127.0.0.1/x"], ["[::1"], ["localhost.evil.example"],
        ]
        for hosts in refused {
            #expect(policy.refusal(hosts: hosts, origins: []) == .host, "\(hosts)")
        }
    }

    @Test func onlyTheDaemonsOwnOriginPasses() {
        // When a browser names the daemon itself as the page's origin, then it passes.
        for origin in ["http://127.0.0.1:6800", "http://localhost:6800", "http://[::1]:6800", "HTTP://LOCALHOST:6800"] {
            #expect(policy.refusal(hosts: ["127.0.0.1:6800"], origins: [origin]) == nil, "\(origin)")
        }
        // And any other page, another local port, https, the opaque "null" origin, or a second
        // Origin that is foreign, is refused for its Origin.
        let refused: [[String]] = [
            ["http://evil.example"], ["http://evil.example:6800"], ["null"], [""], ["http://127.0.0.1:8080"],
            ["https://127.0.0.1:6800"], ["http://localhost"], ["http://127.0.0.1:6800/page"],
            ["http://127.0.0.1.evil.example:6800"], ["http://user@127.0.0.1:6800"], ["ws://127.0.0.1:6800"],
            ["http://127.0.0.1:6800", "http://evil.example"],
        ]
        for origins in refused {
            #expect(policy.refusal(hosts: ["127.0.0.1:6800"], origins: origins) == .origin, "\(origins)")
        }
        // An origin without a port is port 80.
        #expect(RequestOriginPolicy(port: 80).refusal(hosts: ["localhost"], origins: ["http://localhost"]) == nil)
    }

    @Test func eachFlagOpensOnlyItsOwnCheck() {
        // Given --rpc-allow-origin-all: any Origin passes, the Host is still checked.
        let anyOrigin = RequestOriginPolicy(port: 6800, allowsAnyOrigin: true)
        #expect(anyOrigin.refusal(hosts: ["127.0.0.1:6800"], origins: ["http://evil.example"]) == nil)
        #expect(anyOrigin.refusal(hosts: ["evil.example:6800"], origins: ["http://evil.example"]) == .host)

        // Given --rpc-listen-all: any Host (or none) passes, the Origin is still checked.
        let anyHost = RequestOriginPolicy(port: 6800, allowsAnyHost: true)
        #expect(anyHost.refusal(hosts: ["192.0.2.7:6800"], origins: []) == nil)
        #expect(anyHost.refusal(hosts: [], origins: []) == nil)
        #expect(anyHost.refusal(hosts: ["evil.example:6800"], origins: ["http://evil.example:6800"]) == .origin)

        // And both: everything passes.
        let open = RequestOriginPolicy(port: 6800, allowsAnyOrigin: true, allowsAnyHost: true)
        #expect(open.refusal(hosts: ["evil.example"], origins: ["null"]) == nil)
    }

    @Test func refusalsSayWhichFlagWouldAllowThem() {
        #expect(RequestOriginPolicy.Refusal.origin.message.contains("--rpc-allow-origin-all"))
        #expect(RequestOriginPolicy.Refusal.host.message.contains("--rpc-listen-all"))
    }
}
