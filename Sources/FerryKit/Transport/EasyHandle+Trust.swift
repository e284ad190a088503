import CCurl
import Foundation

/// The TLS trust of an `EasyHandle` (engine thread): the policy each hop is evaluated by (see
/// ``ServerTrustManager``) and the libcurl options that policy sets. Ferry follows redirects
/// itself, so the options are set again before a hop whose policy differs from the last one's.
extension EasyHandle {
    /// `HopTrust` is the policy a hop is evaluated by, with the pattern of the rule that chose
    /// it (`nil`: no rule matched, the request's own policy or the session's applies).
    struct HopTrust: Equatable {
        let policy: SecurityPolicy
        let rule: String?
    }

    /// `trust(for:)` is the policy of a hop to `url`: the session's rule for its host, else the
    /// request's own policy, else the session's.
    func trust(for url: URL) -> HopTrust {
        if let host = url.host, let rule = configuration.trustManager?.rule(forHost: host) {
            return HopTrust(policy: rule.policy, rule: rule.pattern)
        }
        return HopTrust(policy: task.request.securityPolicy ?? configuration.securityPolicy, rule: nil)
    }

    /// `applyTrust(for:)` sets the TLS options of the hop to `url`: always for the first hop,
    /// then only when its policy is not the previous hop's.
    func applyTrust(for url: URL) {
        let next = trust(for: url)
        if hopTrust?.policy != next.policy { apply(next.policy) }
        hopTrust = next
    }

    /// `trustNote` is what a TLS failure adds to say where it happened and which policy
    /// judged: the host after a redirect, and the rule (or its absence) that chose the policy.
    var trustNote: String? {
        let host = currentURL.host.map(ServerTrustManager.normalized) ?? "the server"
        let place = Origin(currentURL)?.hostKey ?? host
        let rule = hopTrust?.rule
        switch (redirectCount > 0, rule) {
        case (false, nil): return nil
        case (false, let rule?): return "checked by the trust rule for \(rule)"
        case (true, let rule?): return "after a redirect to \(place), checked by the trust rule for \(rule)"
        case (true, nil):
            let rules = configuration.trustManager.map { !$0.rules.isEmpty } ?? false
            return "after a redirect to \(place)" + (rules ? "; no trust rule matches \(host)" : "")
        }
    }

    /// `apply(_:)` sets the TLS options of `policy` (see ``SecurityPolicy``): verification, the
    /// authorities (the pinned certificates alone in certificate mode), key pins and the
    /// client certificate. Every option is set, to libcurl's default where the policy leaves
    /// it, so that nothing of a previous hop's policy remains on the handle.
    func apply(_ policy: SecurityPolicy) {
        set(CURLOPT_SSL_VERIFYPEER, policy.verifiesPeer ? 1 : 0)
        set(CURLOPT_SSL_VERIFYHOST, policy.verifiesPeer && policy.validatesDomainName ? 2 : 0)
        if !policy.pinnedCertificates.isEmpty {
            // The blob replaces CAINFO for libcurl; CAPATH would add the system's anchors.
            let bundle = Array(policy.pinnedCertificates.joined().utf8)
            _ = bundle.withUnsafeBytes { bytes in ccurl_easy_setopt_blob(raw, CURLOPT_CAINFO_BLOB, bytes.baseAddress, bytes.count) }
            set(CURLOPT_CAINFO, optionalString: Self.builtInAuthorities.file)
            set(CURLOPT_CAPATH, optionalString: nil)
        } else {
            _ = ccurl_easy_setopt_pointer(raw, CURLOPT_CAINFO_BLOB, nil)
            set(CURLOPT_CAINFO, optionalString: policy.certificateAuthorityFile ?? Self.builtInAuthorities.file)
            set(CURLOPT_CAPATH, optionalString: policy.certificateAuthorityDirectory ?? Self.builtInAuthorities.directory)
        }
        set(CURLOPT_PINNEDPUBLICKEY, optionalString: policy.pinnedPublicKeyHashes.isEmpty ? nil : policy.pinnedPublicKeyHashes.joined(separator: ";"))
        set(CURLOPT_SSLCERT, optionalString: policy.clientCertificateFile)
        set(CURLOPT_SSLKEY, optionalString: policy.clientCertificateFile.map { policy.clientKeyFile ?? $0 })
    }

    /// `builtInAuthorities` are the CA bundle and directory this libcurl uses when none is set
    /// (its build's defaults), read once from a new handle: setting `CAINFO` or `CAPATH` back
    /// to `NULL` would leave none at all.
    static let builtInAuthorities: (file: String?, directory: String?) = {
        guard let handle = curl_easy_init() else { return (nil, nil) }
        defer { curl_easy_cleanup(handle) }
        func read(_ info: CURLINFO) -> String? {
            var pointer: UnsafePointer<CChar>?
            guard ccurl_easy_getinfo_string(handle, info, &pointer) == CURLE_OK, let pointer else { return nil }
            return String(cString: pointer)
        }
        return (read(CURLINFO_CAINFO), read(CURLINFO_CAPATH))
    }()

    /// `set(_:optionalString:)` sets a string option, or clears it (`NULL`) for `nil`.
    private func set(_ option: CURLoption, optionalString value: String?) {
        if let value {
            set(option, string: value)
        } else {
            _ = ccurl_easy_setopt_string(raw, option, nil)
        }
    }
}
