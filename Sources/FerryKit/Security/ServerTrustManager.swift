import Foundation

/// `ServerTrustManager` holds per-host TLS trust rules, as Alamofire's `ServerTrustManager`
/// holds an evaluator per host: each rule is a host pattern and the ``SecurityPolicy`` that
/// hosts it matches are evaluated by.
///
/// A pattern is a host name or address (`example.org`, `127.0.0.1`, `::1`), matched exactly,
/// or `*.` and a domain (`*.example.org`), matching every subdomain of it at any depth
/// (`a.example.org`, `b.a.example.org`) but not the domain itself. Case and a final dot do not
/// count. When several rules match, the most specific wins: the exact one, else the wildcard
/// with the longest domain.
///
/// The policy of each connection of a transfer, redirects included, is chosen by its host:
/// - a host with a rule is always evaluated by its rule, whatever the request's own policy;
/// - a host without one is evaluated by the request's own policy (`Request.securityPolicy`),
///   else the session's (`SessionConfiguration.securityPolicy`). A request's policy thus
///   applies to every hop without a rule: a `--pin` given for the first host still applies
///   after a redirect to a host without a rule, which then fails unless it has the pinned key.
public struct ServerTrustManager: Sendable, Equatable {
    /// `Rule` is one host pattern (in lower case, without a final dot) and its policy.
    public struct Rule: Sendable, Equatable {
        public let pattern: String
        public let policy: SecurityPolicy
    }

    /// The rules in the order they were set; one per pattern.
    public private(set) var rules: [Rule] = []

    /// `init()` is a manager without rules (every host gets the request's or session's policy).
    public init() {}

    /// `setPolicy(_:forHost:)` makes `policy` the rule for `pattern`, replacing an earlier rule
    /// for the same pattern. Throws an input error when `pattern` is not a host name, an
    /// address or `*.` followed by a domain.
    public mutating func setPolicy(_ policy: SecurityPolicy, forHost pattern: String) throws(FerryError) {
        let normalized = Self.normalized(pattern)
        guard Self.isValidHostPattern(normalized) else {
            throw .input(.invalidOption("\(pattern): a trust rule's host is a host name, an address or *.DOMAIN"))
        }
        rules.removeAll { $0.pattern == normalized }
        rules.append(Rule(pattern: normalized, policy: policy))
    }

    /// `rule(forHost:)` is the most specific rule matching `host`, `nil` when none does.
    public func rule(forHost host: String) -> Rule? {
        let host = Self.normalized(host)
        guard !host.isEmpty else { return nil }
        if let exact = rules.first(where: { $0.pattern == host }) { return exact }
        return rules
            .filter { Self.matches(pattern: $0.pattern, host: host) }
            .max { $0.pattern.count < $1.pattern.count }
    }

    /// `policy(forHost:)` is the policy of the rule matching `host`, `nil` when none does.
    public func policy(forHost host: String) -> SecurityPolicy? {
        rule(forHost: host)?.policy
    }

    /// `matches(pattern:host:)` says whether `pattern` matches `host`, both as `normalized(_:)`
    /// makes them: equal, or a `*.DOMAIN` pattern and a host ending in `.DOMAIN`.
    static func matches(pattern: String, host: String) -> Bool {
        if pattern.hasPrefix("*.") {
            let suffix = pattern.dropFirst()  // ".DOMAIN"
            return host.count > suffix.count && host.hasSuffix(suffix)
        }
        return pattern == host
    }

    /// `normalized(_:)` is `host` in lower case, without blanks, IPv6 brackets or a final dot.
    static func normalized(_ host: String) -> String {
        var text = host.trimmingCharacters(in: .whitespaces).lowercased()
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text.hasSuffix("."), text.count > 1 { text = String(text.dropLast()) }
        return text
    }

    /// `isValidHostPattern(_:)` says whether `pattern` is a host (name, IPv4 or IPv6 address)
    /// or `*.` followed by a domain name, as `setPolicy(_:forHost:)` takes it.
    public static func isValidHostPattern(_ pattern: String) -> Bool {
        let pattern = normalized(pattern)
        let host = pattern.hasPrefix("*.") ? String(pattern.dropFirst(2)) : pattern
        guard !host.isEmpty, !host.hasPrefix("."), !host.contains("..") else { return false }
        if host.contains(":") {
            // An IPv6 address; no wildcard over one.
            return !pattern.hasPrefix("*.") && host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        return host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_") }
    }
}
