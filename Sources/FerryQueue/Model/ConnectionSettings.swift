import FerryKit
import Foundation

/// `ConnectionSettings` are a task's own trust, login, proxy, cookie and compression settings
/// (curl's `--cacert`, `--pin`, `-k`, `--cert`, `-u`, `--netrc-file`, `--proxy`, `-b`, `-c`,
/// `--compressed`; aria2's `ca-certificate`, `check-certificate`, `http-user`, `all-proxy`,
/// `load-cookies`, ...), kept with the task in the journal so a queued task runs with them
/// after a restart, in whichever engine runs it. Everything is unset by default: the engine's
/// own settings apply.
///
/// Pins are kept resolved (`sha256//BASE64` hashes and PEM certificate text), so a pin file
/// removed after the task was added changes nothing. The password is kept as given (the journal
/// is the user's own, mode 0600 in a 0700 directory, as aria2 keeps `http-passwd` in its
/// session file); `description` and `summary` never show it, nor a proxy's.
public struct ConnectionSettings: Sendable, Hashable, CustomStringConvertible {
    /// `insecure` skips the checks of TLS certificates and host names (`-k`); `false` by default.
    public var insecure = false
    /// `caFile` and `caDirectory` are the authorities trusted instead of the system's.
    public var caFile: String?
    public var caDirectory: String?
    /// `pinnedKeys` are public-key pins (`sha256//BASE64`), `pinnedCertificates` certificate
    /// pins (PEM, the only anchors); any one matching passes.
    public var pinnedKeys: [String] = []
    public var pinnedCertificates: [String] = []
    /// `clientCertificate` is presented to servers that ask for one, with `clientKey` (or the
    /// key in the same file).
    public var clientCertificate: String?
    public var clientKey: String?
    /// `user` and `password` log in to the task's own origins, with `authScheme` (`any` when `nil`).
    public var user: String?
    public var password: String?
    public var authScheme: Login.Scheme?
    /// `usesNetrc` reads `.netrc` (`netrcFile`, else `~/.netrc`) for hosts without a login;
    /// `nil`: the engine's choice.
    public var usesNetrc: Bool?
    public var netrcFile: String?
    /// `proxy` carries the task's requests, except to the hosts of `noProxy`.
    public var proxy: String?
    public var noProxy: String?
    /// `cookieFiles` are read into the engine's cookie store, `cookieJar` written from it when
    /// the transfer ends.
    public var cookieFiles: [String] = []
    public var cookieJar: String?
    /// `compressed` asks for a compressed body, saved decoded (never with a range).
    public var compressed = false
    /// `ignoresMetalinkHTTP` leaves a response's Metalink/HTTP mirrors and digest unused
    /// (`--no-metalink-http`); `false` by default.
    public var ignoresMetalinkHTTP = false
    /// `connectTimeout` is the seconds allowed to connect (curl's `--connect-timeout`),
    /// `maximumTime` those the whole transfer may take (curl's `--max-time`); `nil`: the
    /// engine's (no total limit).
    public var connectTimeout: Double?
    public var maximumTime: Double?

    public init() {}

    /// `isEmpty` is true when nothing is set (the engine's settings apply).
    public var isEmpty: Bool { self == ConnectionSettings() }

    /// `setsTrust` is true when any TLS setting is set.
    public var setsTrust: Bool {
        insecure || caFile != nil || caDirectory != nil || !pinnedKeys.isEmpty || !pinnedCertificates.isEmpty || clientCertificate != nil
    }

    /// `securityPolicy` is the policy the TLS settings make; `nil` when none is set.
    public var securityPolicy: SecurityPolicy? {
        guard setsTrust else { return nil }
        var policy = SecurityPolicy(verifiesPeer: !insecure)
        policy.certificateAuthorityFile = caFile
        policy.certificateAuthorityDirectory = caDirectory
        policy.pinnedPublicKeyHashes = pinnedKeys
        policy.pinnedCertificates = pinnedCertificates
        policy.clientCertificateFile = clientCertificate
        policy.clientKeyFile = clientKey
        return policy
    }

    /// `login` is the login of `user` and `password`; `nil` without a user.
    public var login: Login? {
        user.map { Login(user: $0, password: password ?? "", scheme: authScheme ?? .any) }
    }

    /// `adopt(_:)` takes the pins, authorities and client certificate of `policy` (as a command
    /// line made it, the environment's authorities included).
    public mutating func adopt(_ policy: SecurityPolicy) {
        insecure = !policy.verifiesPeer
        caFile = policy.certificateAuthorityFile
        caDirectory = policy.certificateAuthorityDirectory
        pinnedKeys = policy.pinnedPublicKeyHashes
        pinnedCertificates = policy.pinnedCertificates
        clientCertificate = policy.clientCertificateFile
        clientKey = policy.clientKeyFile
    }

    /// `apply(to:)` gives `request` what is set here; what is unset stays as it is.
    public func apply(to request: inout Request) {
        if let policy = securityPolicy { request.securityPolicy = policy }
        if let login { request.login = login }
        if let usesNetrc {
            request.usesNetrc = usesNetrc
            request.netrcFile = usesNetrc ? netrcFile : nil
        }
        if let proxy { request.proxy = ProxySettings(url: proxy, noProxy: noProxy ?? "") }
        if !cookieFiles.isEmpty { request.cookieFiles = cookieFiles }
        if let cookieJar { request.cookieJar = cookieJar }
        if compressed { request.acceptsCompression = true }
        if let connectTimeout { request.connectTimeout = connectTimeout }
        if let maximumTime { request.maximumTime = maximumTime }
    }

    /// `options(revealingSecrets:)` is what is set, as `TaskOptionTable`'s option names
    /// (aria2's where it has them) and values, in a fixed order: read back by the table, they
    /// give these settings again. Without `revealingSecrets` the password is `***`, a proxy's
    /// credentials are masked and certificate pins are counted.
    public func options(revealingSecrets reveal: Bool) -> [(key: String, values: [String])] {
        var options: [(key: String, values: [String])] = []
        func add(_ key: String, _ value: String?) {
            if let value { options.append((key, [value])) }
        }
        add("check-certificate", insecure ? "false" : nil)
        add("ca-certificate", caFile)
        add("ca-directory", caDirectory)
        let pins = reveal || pinnedCertificates.isEmpty
            ? pinnedKeys + pinnedCertificates : pinnedKeys + ["\(pinnedCertificates.count) pinned certificate(s)"]
        if !pins.isEmpty { options.append(("pin", pins)) }
        add("certificate", clientCertificate)
        add("private-key", clientKey)
        add("http-user", user)
        add("http-passwd", password.map { reveal ? $0 : "***" })
        add("http-auth", authScheme?.rawValue)
        add("no-netrc", usesNetrc.map { $0 ? "false" : "true" })
        add("netrc-path", netrcFile)
        add("all-proxy", proxy.map { reveal ? $0 : URLMasking.mask($0) })
        add("no-proxy", noProxy)
        if !cookieFiles.isEmpty { options.append(("load-cookies", cookieFiles)) }
        add("save-cookies", cookieJar)
        add("http-accept-gzip", compressed ? "true" : nil)
        add("metalink-http", ignoresMetalinkHTTP ? "false" : nil)
        add("connect-timeout", connectTimeout.map(TaskOptionTable.secondsText))
        add("max-time", maximumTime.map(TaskOptionTable.secondsText))
        return options
    }

    /// `summary` is what is set, one `key`/`value` per value, secrets masked (see
    /// `options(revealingSecrets:)`).
    public var summary: [(key: String, value: String)] {
        options(revealingSecrets: false).flatMap { option in option.values.map { (option.key, $0) } }
    }

    /// `description` is `summary` on one line.
    public var description: String {
        summary.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }
}

extension ConnectionSettings: Codable {
    private enum Key: String, CodingKey {
        case insecure, caFile = "ca", caDirectory = "capath", pinnedKeys = "pins", pinnedCertificates = "certpins",
             clientCertificate = "cert", clientKey = "key", user, password, authScheme = "auth", usesNetrc = "netrc",
             netrcFile = "netrcFile", proxy, noProxy, cookieFiles = "cookies", cookieJar = "jar", compressed,
             connectTimeout, maximumTime = "maxTime", ignoresMetalinkHTTP = "noMetalinkHTTP"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        insecure = try c.decodeIfPresent(Bool.self, forKey: .insecure) ?? false
        caFile = try c.decodeIfPresent(String.self, forKey: .caFile)
        caDirectory = try c.decodeIfPresent(String.self, forKey: .caDirectory)
        pinnedKeys = try c.decodeIfPresent([String].self, forKey: .pinnedKeys) ?? []
        pinnedCertificates = try c.decodeIfPresent([String].self, forKey: .pinnedCertificates) ?? []
        clientCertificate = try c.decodeIfPresent(String.self, forKey: .clientCertificate)
        clientKey = try c.decodeIfPresent(String.self, forKey: .clientKey)
        user = try c.decodeIfPresent(String.self, forKey: .user)
        password = try c.decodeIfPresent(String.self, forKey: .password)
        authScheme = try c.decodeIfPresent(String.self, forKey: .authScheme).flatMap(Login.Scheme.init(rawValue:))
        usesNetrc = try c.decodeIfPresent(Bool.self, forKey: .usesNetrc)
        netrcFile = try c.decodeIfPresent(String.self, forKey: .netrcFile)
        proxy = try c.decodeIfPresent(String.self, forKey: .proxy)
        noProxy = try c.decodeIfPresent(String.self, forKey: .noProxy)
        cookieFiles = try c.decodeIfPresent([String].self, forKey: .cookieFiles) ?? []
        cookieJar = try c.decodeIfPresent(String.self, forKey: .cookieJar)
        compressed = try c.decodeIfPresent(Bool.self, forKey: .compressed) ?? false
        ignoresMetalinkHTTP = try c.decodeIfPresent(Bool.self, forKey: .ignoresMetalinkHTTP) ?? false
        connectTimeout = try c.decodeIfPresent(Double.self, forKey: .connectTimeout)
        maximumTime = try c.decodeIfPresent(Double.self, forKey: .maximumTime)
    }

    /// Only what is set is written.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        if insecure { try c.encode(true, forKey: .insecure) }
        try c.encodeIfPresent(caFile, forKey: .caFile)
        try c.encodeIfPresent(caDirectory, forKey: .caDirectory)
        if !pinnedKeys.isEmpty { try c.encode(pinnedKeys, forKey: .pinnedKeys) }
        if !pinnedCertificates.isEmpty { try c.encode(pinnedCertificates, forKey: .pinnedCertificates) }
        try c.encodeIfPresent(clientCertificate, forKey: .clientCertificate)
        try c.encodeIfPresent(clientKey, forKey: .clientKey)
        try c.encodeIfPresent(user, forKey: .user)
        try c.encodeIfPresent(password, forKey: .password)
        try c.encodeIfPresent(authScheme?.rawValue, forKey: .authScheme)
        try c.encodeIfPresent(usesNetrc, forKey: .usesNetrc)
        try c.encodeIfPresent(netrcFile, forKey: .netrcFile)
        try c.encodeIfPresent(proxy, forKey: .proxy)
        try c.encodeIfPresent(noProxy, forKey: .noProxy)
        if !cookieFiles.isEmpty { try c.encode(cookieFiles, forKey: .cookieFiles) }
        try c.encodeIfPresent(cookieJar, forKey: .cookieJar)
        if compressed { try c.encode(true, forKey: .compressed) }
        if ignoresMetalinkHTTP { try c.encode(true, forKey: .ignoresMetalinkHTTP) }
        try c.encodeIfPresent(connectTimeout, forKey: .connectTimeout)
        try c.encodeIfPresent(maximumTime, forKey: .maximumTime)
    }

    /// `journalText` is the JSON kept in the journal's `task.connection`; `nil` when nothing is set.
    var journalText: String? {
        guard !isEmpty, let data = try? JSONEncoder().encode(self) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// `init(journalText:)` reads `task.connection` back.
    init(journalText text: String) throws {
        self = try JSONDecoder().decode(ConnectionSettings.self, from: Data(text.utf8))
    }
}
