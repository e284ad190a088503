import FerryTestSupport
import Foundation
import Testing
@testable import FerryKit

/// Per-host trust rules (`ServerTrustManager`) against nginx over HTTPS: each redirect hop is
/// checked by its own host's policy. `127.0.0.1` and `localhost` name the same machine, so a
/// redirect between them goes to another host that rules can tell apart.
@Suite(.serialized) struct TrustRedirectTests {
    /// `Servers` is one nginx with four HTTPS servers on 127.0.0.1: `a` (the CA's leaf) whose
    /// `/to-b` and `/to-c` redirect to `b` (self-signed) and `c` (the CA's leaf) by the name
    /// `localhost`, and `selfsigned` reached as 127.0.0.1.
    final class Servers {
        let certificates: TestCertificates
        let www: TemporaryDirectory
        let nginx: NginxServer
        let ports: [String: Int]

        init() throws {
            certificates = try TestCertificates()
            www = try TemporaryDirectory(worldReadable: true)
            try Pattern.writeFile(at: www.file("t.bin"), count: 40_000, seed: 47)
            var ports: [String: Int] = [:]
            for name in ["a", "b", "c", "selfsigned"] { ports[name] = try Loopback.freePort() }
            let b = ports["b"] ?? 0, c = ports["c"] ?? 0
            let redirects = """
                location = /to-b { return 302 https://localhost:\(b)/t.bin; }
                location = /to-c { return 302 https://localhost:\(c)/t.bin; }
                """
            let blocks = certificates.serverBlock(port: ports["a"] ?? 0, certificate: "leaf", root: www.url, extra: redirects)
                + certificates.serverBlock(port: b, certificate: "selfsigned", root: www.url)
                + certificates.serverBlock(port: c, certificate: "leaf", root: www.url)
                + certificates.serverBlock(port: ports["selfsigned"] ?? 0, certificate: "selfsigned", root: www.url)
            self.ports = ports
            nginx = try NginxServer.start(root: www.url, httpConfig: blocks)
        }

        deinit {
            nginx.stop()
            www.remove()
        }

        func url(_ server: String, _ path: String = "/t.bin") -> URL {
            URL(string: "https://127.0.0.1:\(ports[server] ?? 0)\(path)")!
        }

        /// The CA's authorities with a pin of the leaf's key: what a user pinning `a` gives.
        func pinnedToA() throws -> SecurityPolicy {
            var policy = SecurityPolicy(certificateAuthorityFile: certificates.path("ca.pem"))
            try policy.addPin(try certificates.publicKeyPin(of: "leaf"))
            return policy
        }

        /// A policy whose only anchor is the self-signed certificate (`b`'s).
        func anchoredToSelfSigned() throws -> SecurityPolicy {
            var policy = SecurityPolicy()
            try policy.addPin(certificates.path("selfsigned.pem"))
            return policy
        }
    }

    private func fetch(_ url: URL, policy: SecurityPolicy?, rules: [String: SecurityPolicy] = [:]) async throws -> Result<TransferResult, FerryError> {
        var configuration = SessionConfiguration.default
        if !rules.isEmpty {
            var manager = ServerTrustManager()
            for (host, rule) in rules { try manager.setPolicy(rule, forHost: host) }
            configuration.trustManager = manager
        }
        let session = SessionManager(configuration: configuration)
        defer { session.invalidate() }
        var request = Request(url: url)
        request.securityPolicy = policy
        let task = session.dataTask(with: request)
        task.resume()
        return await task.outcome()
    }

    private func tlsDetail(_ outcome: Result<TransferResult, FerryError>) -> String? {
        if case .failure(.transport(.tls(let detail))) = outcome { return detail }
        return nil
    }

    private func isWholeFile(_ outcome: Result<TransferResult, FerryError>) -> Bool {
        guard case .success(let result) = outcome, let data = result.data else { return false }
        return SHA256Hex.of(data: data) == Pattern.sha256Hex(count: 40_000, seed: 47)
    }

    @Test func aPinnedRequestRedirectedToAnotherHostIsCheckedThereAndFailsClearly() async throws {
        // Given a request pinned to a's key, which a accepts
        let servers = try Servers()
        let pinned = try servers.pinnedToA()
        #expect(isWholeFile(try await fetch(servers.url("a"), policy: pinned)))
        // When a redirects it to b (another certificate, no rule for its host)
        let outcome = try await fetch(servers.url("a", "/to-b"), policy: pinned)
        // Then the pin is checked against b and fails, naming the host of the failing hop
        let detail = try #require(tlsDetail(outcome), "\(outcome)")
        #expect(detail.contains("after a redirect to localhost:\(servers.ports["b"] ?? 0)"), "\(detail)")
        #expect(FerryError.transport(.tls(detail)).description.hasPrefix("TLS error: "))
        // With rules for other hosts only, it says none matched the failing one.
        let unmatched = try await fetch(servers.url("a", "/to-b"), policy: pinned, rules: ["*.example.org": .default])
        #expect(tlsDetail(unmatched)?.contains("after a redirect to localhost:\(servers.ports["b"] ?? 0); no trust rule matches localhost") == true, "\(unmatched)")
    }

    @Test func aRuleForTheRedirectTargetJudgesItInsteadOfTheRequestsPins() async throws {
        let servers = try Servers()
        let pinned = try servers.pinnedToA()
        // Given a rule for localhost anchored to b's certificate, the hop to b passes: neither
        // a's pin nor a's authorities are left on the handle for it.
        let accepted = try await fetch(servers.url("a", "/to-b"), policy: pinned, rules: ["localhost": try servers.anchoredToSelfSigned()])
        #expect(isWholeFile(accepted), "\(accepted)")
        // A rule that does not accept b fails there, and says which rule judged.
        let refused = try await fetch(servers.url("a", "/to-b"), policy: pinned, rules: ["LOCALHOST": pinned])
        let detail = try #require(tlsDetail(refused), "\(refused)")
        #expect(detail.contains("after a redirect to localhost:\(servers.ports["b"] ?? 0), checked by the trust rule for localhost"), "\(detail)")
    }

    @Test func theFirstHostsAuthoritiesDoNotCarryOverToTheNextHost() async throws {
        let servers = try Servers()
        // c has the CA's leaf too: only a's own authorities (a CA file, or the CA as the
        // pinned anchor) accept it. With a rule for localhost at the system's defaults, the
        // hop to c must fail: a CA file or anchor of the first hop left on the handle would pass it.
        var anchoredToCA = SecurityPolicy()
        try anchoredToCA.addPin(servers.certificates.path("ca.pem"))
        let byFile = SecurityPolicy(certificateAuthorityFile: servers.certificates.path("ca.pem"))
        for first in [anchoredToCA, byFile] {
            #expect(isWholeFile(try await fetch(servers.url("c"), policy: first)))
            #expect(isWholeFile(try await fetch(servers.url("a", "/to-c"), policy: first)))
            let outcome = try await fetch(servers.url("a", "/to-c"), policy: first, rules: ["localhost": .default])
            #expect(tlsDetail(outcome) != nil, "\(outcome)")
        }
    }

    @Test func aRuleForAHostOverridesTheSessionAndTheRequestPolicy() async throws {
        let servers = try Servers()
        let url = servers.url("selfsigned")
        // Without a rule the self-signed server fails under the session's default and under
        // the request's own CA.
        let caOnly = SecurityPolicy(certificateAuthorityFile: servers.certificates.path("ca.pem"))
        #expect(tlsDetail(try await fetch(url, policy: nil)) != nil)
        #expect(tlsDetail(try await fetch(url, policy: caOnly)) != nil)
        // With a rule pinning its certificate it passes, the request's policy notwithstanding.
        let rules = ["127.0.0.1": try servers.anchoredToSelfSigned()]
        #expect(isWholeFile(try await fetch(url, policy: nil, rules: rules)))
        #expect(isWholeFile(try await fetch(url, policy: caOnly, rules: rules)))
        // A rule for another host changes nothing here.
        #expect(tlsDetail(try await fetch(url, policy: nil, rules: ["localhost": try servers.anchoredToSelfSigned()])) != nil)
        // A failure on the first host under a rule names the rule.
        let refused = try await fetch(url, policy: nil, rules: ["127.0.0.1": caOnly])
        #expect(tlsDetail(refused)?.contains("checked by the trust rule for 127.0.0.1") == true, "\(refused)")
    }
}

/// `ServerTrustManager`'s host matching, and the authorities a handle falls back to, without a server.
struct ServerTrustManagerMatchingTests {
    private func manager(_ patterns: [String]) throws -> ServerTrustManager {
        var manager = ServerTrustManager()
        for (index, pattern) in patterns.enumerated() {
            // Each rule told apart by its CA file.
            try manager.setPolicy(SecurityPolicy(certificateAuthorityFile: "/\(index)"), forHost: pattern)
        }
        return manager
    }

    @Test func exactHostsMatchWithoutRegardToCaseOrAFinalDot() throws {
        let rules = try manager(["Example.ORG", "127.0.0.1", "[::1]"])
        #expect(rules.rule(forHost: "example.org")?.pattern == "example.org")
        #expect(rules.rule(forHost: "EXAMPLE.org.")?.pattern == "example.org")
        #expect(rules.rule(forHost: "127.0.0.1")?.pattern == "127.0.0.1")
        #expect(rules.rule(forHost: "::1")?.pattern == "::1")
        #expect(rules.rule(forHost: "[::1]")?.pattern == "::1")
        #expect(rules.rule(forHost: "www.example.org") == nil)
        #expect(rules.rule(forHost: "example.org.evil") == nil)
        #expect(rules.rule(forHost: "127.0.0.10") == nil)
        #expect(rules.rule(forHost: "") == nil)
    }

    @Test func aWildcardMatchesSubdomainsAtAnyDepthButNotTheDomain() throws {
        let rules = try manager(["*.example.org"])
        #expect(rules.rule(forHost: "a.example.org")?.pattern == "*.example.org")
        #expect(rules.rule(forHost: "b.a.Example.org")?.pattern == "*.example.org")
        #expect(rules.rule(forHost: "example.org") == nil)
        #expect(rules.rule(forHost: "badexample.org") == nil)
        #expect(rules.rule(forHost: "a.example.org.evil.net") == nil)
        #expect(rules.rule(forHost: ".example.org") == nil)
    }

    @Test func theMostSpecificRuleWins() throws {
        let rules = try manager(["*.example.org", "*.a.example.org", "x.a.example.org", "example.org"])
        #expect(rules.policy(forHost: "x.a.example.org")?.certificateAuthorityFile == "/2")
        #expect(rules.policy(forHost: "y.a.example.org")?.certificateAuthorityFile == "/1")
        #expect(rules.policy(forHost: "b.example.org")?.certificateAuthorityFile == "/0")
        #expect(rules.policy(forHost: "example.org")?.certificateAuthorityFile == "/3")
        // The order rules were given in does not matter.
        let reversed = try manager(["x.a.example.org", "*.a.example.org", "*.example.org"])
        #expect(reversed.rule(forHost: "y.a.example.org")?.pattern == "*.a.example.org")
        #expect(reversed.rule(forHost: "x.a.example.org")?.pattern == "x.a.example.org")
    }

    @Test func aLaterRuleForTheSamePatternReplacesTheEarlierOne() throws {
        let rules = try manager(["example.org", "EXAMPLE.org"])
        #expect(rules.rules.count == 1)
        #expect(rules.policy(forHost: "example.org")?.certificateAuthorityFile == "/1")
    }

    @Test func aPolicyWithoutAuthoritiesGetsLibcurlsBuiltInOnesBack() throws {
        // Setting CAINFO to NULL would leave no authority at all: the handle restores the
        // bundle this libcurl was built with, as curl-config reports it.
        let configured = try run(executable: "/usr/bin/env", arguments: ["curl-config", "--ca"])
        try #require(configured.succeeded, "\(configured.stderr)")
        let bundle = configured.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!bundle.isEmpty)
        #expect(EasyHandle.builtInAuthorities.file == bundle)
    }

    @Test func patternsThatAreNotHostsAreRefused() {
        for pattern in ["", "*", "*.", "**.example.org", "a.*.example.org", "example..org", "https://example.org", "example.org/x", "exa mple.org", "*.::1"] {
            var manager = ServerTrustManager()
            #expect(throws: FerryError.self, "\(pattern)") { try manager.setPolicy(.default, forHost: pattern) }
        }
    }
}
