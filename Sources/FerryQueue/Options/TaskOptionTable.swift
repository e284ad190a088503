import FerryKit
import Foundation

/// `TaskOptionTable` is the one table of a task's options by name (aria2's names, Ferry's own
/// where aria2 has none): batch input files, RPC `addUri` and `changeOption`, and the
/// configuration file's task options all read values through it, with the same checks and
/// the same words for a bad value.
public enum TaskOptionTable {
    /// `Option` is one option: its name, what it sets, and how a value is read into a draft
    /// (throws for a bad value; returns why the value is read but not applied).
    public struct Option: Sendable {
        public let name: String
        public let summary: String
        /// `changeable` is true for an option `changeOption` may change on a task already added.
        public let changeable: Bool
        let read: @Sendable (String, inout TaskDraft) throws(QueueError) -> String?
    }

    /// `options` are every option, in the order help texts show them.
    public static let options: [Option] = [
        Option(name: "dir", summary: "the directory the file is saved in", changeable: false) { value, draft throws(QueueError) in
            guard !value.isEmpty, !value.contains("\0") else { throw invalid("dir", "must be a directory") }
            draft.directory = value
            return nil
        },
        Option(name: "out", summary: "the file name, or a path inside dir", changeable: false) { value, draft throws(QueueError) in
            // Each part gets the check `-o` gets (SafeFileName.check(requestedName:)): a path
            // stays inside `dir`.
            let parts = value.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            for part in parts {
                switch SafeFileName.check(requestedName: part) {
                case .path?:
                    throw invalid("out", "must be a name or a path inside dir= (no empty, '.' or '..' parts)")
                case .unsafe?:
                    throw invalid("out", "must be a plain file name (no leading dot, no control or bidi characters, at most \(SafeFileName.maximumBytes) bytes)")
                case nil:
                    break
                }
            }
            draft.name = parts.last
            draft.subdirectory = parts.count > 1 ? parts.dropLast().joined(separator: "/") : nil
            return nil
        },
        Option(name: "header", summary: "a request header, Name: value (repeatable)", changeable: false) { value, draft throws(QueueError) in
            draft.headers.append(try HeaderField(parsing: value))
            return nil
        },
        Option(name: "user-agent", summary: "the User-Agent header", changeable: false) { value, draft throws(QueueError) in
            draft.headers.append(try HeaderField(name: "User-Agent", value: value))
            return nil
        },
        Option(name: "referer", summary: "the Referer header", changeable: false) { value, draft throws(QueueError) in
            draft.headers.append(try HeaderField(name: "Referer", value: value))
            return nil
        },
        Option(name: "checksum", summary: "ALGO=HEX the file is checked against", changeable: false) { value, draft throws(QueueError) in
            draft.checksum = try Checksum(parsing: value)
            return nil
        },
        Option(name: "pause", summary: "true: added paused", changeable: false) { value, draft throws(QueueError) in
            draft.paused = try flag("pause", value)
            return nil
        },
        Option(name: "max-download-limit", summary: "the download's speed cap (500K, 2M; 0: none)", changeable: true) { value, draft throws(QueueError) in
            draft.limit = .some(try TaskOptions.parseRate(value))
            return nil
        },
        Option(name: "allow-overwrite", summary: "true: replace an existing file", changeable: false) { value, draft throws(QueueError) in
            draft.overwrite = try flag("allow-overwrite", value)
            return nil
        },
        Option(name: "continue", summary: "always true: Ferry resumes its own partial files", changeable: false) { value, _ throws(QueueError) in
            // Ferry always continues its own partial file, and never adopts another's.
            try flag("continue", value) ? nil : "Ferry resumes only the partial files it made"
        },
        Option(name: "auto-file-renaming", summary: "always true: a taken name is numbered", changeable: false) { value, _ throws(QueueError) in
            // Ferry never replaces a file it was not asked to: a taken name is numbered.
            try flag("auto-file-renaming", value) ? nil : "a taken name is always numbered unless allow-overwrite=true"
        },
        Option(name: "max-tries", summary: "tries of the transfer (0: no end)", changeable: false) { value, draft throws(QueueError) in
            // aria2 counts attempts, 0 for no limit; Ferry counts retries after the first.
            guard let tries = Int(value), tries >= 0 else { throw invalid("max-tries", "expected a number of attempts (0 for no limit)") }
            draft.retries = tries == 0 ? 1_000_000 : tries - 1
            return nil
        },
        Option(name: "retries", summary: "retries after a transient failure (Ferry's)", changeable: false) { value, draft throws(QueueError) in
            guard let retries = Int(value), retries >= 0 else { throw invalid("retries", "must be 0 or more") }
            draft.retries = retries
            return nil
        },
        Option(name: "priority", summary: "queue priority, higher first (Ferry's)", changeable: false) { value, draft throws(QueueError) in
            guard let priority = Int(value) else { throw invalid("priority", "must be a whole number") }
            draft.priority = priority
            return nil
        },
        Option(name: "content-disposition", summary: "true: take the server's file name (Ferry's)", changeable: false) { value, draft throws(QueueError) in
            draft.contentDisposition = try flag("content-disposition", value)
            return nil
        },
        Option(name: "split", summary: "connections per file (with max-connection-per-server, the smaller)", changeable: true) { value, draft throws(QueueError) in
            draft.split = try connections("split", value)
            return nil
        },
        Option(name: "max-connection-per-server", summary: "connections per file (with split, the smaller)", changeable: true) { value, draft throws(QueueError) in
            draft.connectionsPerServer = try connections("max-connection-per-server", value)
            return nil
        },
        Option(name: "min-split-size", summary: "no range with less than twice this left is split", changeable: true) { value, draft throws(QueueError) in
            guard let size = try? TaskOptions.parseRate(value), size >= 1024 else {
                throw invalid("min-split-size", "expected a size of at least 1K, e.g. 1M or 20M")
            }
            draft.minSplitSize = size
            return nil
        },
        // Trust.
        Option(name: "check-certificate", summary: "false: TLS certificates and host names are not checked", changeable: true) { value, draft throws(QueueError) in
            draft.connection.insecure = !(try flag("check-certificate", value))
            return draft.given("check-certificate")
        },
        Option(name: "ca-certificate", summary: "the authorities trusted (PEM file)", changeable: true) { value, draft throws(QueueError) in
            draft.connection.caFile = try readableFile("ca-certificate", value)
            return draft.given("ca-certificate")
        },
        Option(name: "ca-directory", summary: "a directory of trusted authorities (Ferry's; curl's --capath)", changeable: true) { value, draft throws(QueueError) in
            var isDirectory: ObjCBool = false
            let path = absolute(value)
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw invalid("ca-directory", "\(path) is not a directory")
            }
            draft.connection.caDirectory = path
            return draft.given("ca-directory")
        },
        Option(name: "pin", summary: "sha256//BASE64 public key, or a PEM key or certificates (Ferry's; repeatable)", changeable: true) { value, draft throws(QueueError) in
            var policy = SecurityPolicy()
            policy.pinnedPublicKeyHashes = draft.connection.pinnedKeys
            policy.pinnedCertificates = draft.connection.pinnedCertificates
            do throws(FerryError) {
                try policy.addPin(value.hasPrefix("sha256//") || value.hasPrefix("-----BEGIN ") ? value : absolute(value))
            } catch {
                throw invalid("pin", error.description)
            }
            draft.connection.pinnedKeys = policy.pinnedPublicKeyHashes
            draft.connection.pinnedCertificates = policy.pinnedCertificates
            return draft.given("pin")
        },
        Option(name: "certificate", summary: "the client certificate (PEM)", changeable: true) { value, draft throws(QueueError) in
            draft.connection.clientCertificate = try readableFile("certificate", value)
            return draft.given("certificate")
        },
        Option(name: "private-key", summary: "the client certificate's key (PEM)", changeable: true) { value, draft throws(QueueError) in
            draft.connection.clientKey = try readableFile("private-key", value)
            return draft.given("private-key")
        },
        // Logins.
        Option(name: "http-user", summary: "the login's user name", changeable: true) { value, draft throws(QueueError) in
            guard !value.isEmpty else { throw invalid("http-user", "is empty") }
            draft.connection.user = value
            return draft.given("http-user")
        },
        Option(name: "http-passwd", summary: "the login's password (never shown)", changeable: true) { value, draft throws(QueueError) in
            draft.connection.password = value
            return draft.given("http-passwd")
        },
        Option(name: "http-auth", summary: "basic (sent at once), digest, or any (after the server asks; Ferry's)", changeable: true) { value, draft throws(QueueError) in
            guard let scheme = Login.Scheme(rawValue: value.lowercased()) else { throw invalid("http-auth", "is basic, digest or any") }
            draft.connection.authScheme = scheme
            return draft.given("http-auth")
        },
        Option(name: "netrc-path", summary: "a .netrc file of logins by host", changeable: true) { value, draft throws(QueueError) in
            draft.connection.netrcFile = try readableFile("netrc-path", value)
            draft.connection.usesNetrc = true
            return draft.given("netrc-path")
        },
        Option(name: "no-netrc", summary: "true: no .netrc", changeable: true) { value, draft throws(QueueError) in
            let off = try flag("no-netrc", value)
            draft.connection.usesNetrc = !off
            if off { draft.connection.netrcFile = nil }
            return draft.given("no-netrc")
        },
        // Proxies, cookies, compression.
        Option(name: "all-proxy", summary: "the proxy (http, https, socks5, socks5h, socks4a URL)", changeable: true) { value, draft throws(QueueError) in
            draft.connection.proxy = try proxy(value)
            return draft.given("all-proxy")
        },
        Option(name: "no-proxy", summary: "hosts reached without the proxy, comma-separated", changeable: true) { value, draft throws(QueueError) in
            draft.connection.noProxy = value
            return draft.given("no-proxy")
        },
        Option(name: "load-cookies", summary: "a cookie file (Netscape format)", changeable: true) { value, draft throws(QueueError) in
            draft.connection.cookieFiles.append(try readableFile("load-cookies", value))
            return draft.given("load-cookies")
        },
        Option(name: "save-cookies", summary: "the cookie jar written when the transfer ends", changeable: true) { value, draft throws(QueueError) in
            let path = absolute(value)
            guard !value.isEmpty, !path.contains("\0") else { throw invalid("save-cookies", "must be a file path") }
            draft.connection.cookieJar = path
            return draft.given("save-cookies")
        },
        Option(name: "http-accept-gzip", summary: "true: ask for a compressed body, saved decoded", changeable: true) { value, draft throws(QueueError) in
            draft.connection.compressed = try flag("http-accept-gzip", value)
            return draft.given("http-accept-gzip")
        },
        Option(name: "metalink-http", summary: "false: leave a response's Metalink/HTTP mirrors and digest unused (Ferry's own)",
               changeable: true) { value, draft throws(QueueError) in
            draft.connection.ignoresMetalinkHTTP = try !flag("metalink-http", value)
            return draft.given("metalink-http")
        },
        Option(name: "connect-timeout", summary: "seconds allowed to connect (curl's --connect-timeout)", changeable: true) { value, draft throws(QueueError) in
            draft.connection.connectTimeout = try seconds("connect-timeout", value)
            return draft.given("connect-timeout")
        },
        Option(name: "max-time", summary: "seconds the whole transfer may take, then it fails (curl's --max-time)", changeable: true) { value, draft throws(QueueError) in
            draft.connection.maximumTime = try seconds("max-time", value)
            return draft.given("max-time")
        },
    ]

    /// `ignored` are aria2 options Ferry reads without applying them, with why.
    public static let ignored: [String: String] = [
        "retry-wait": "the engine's backoff applies",
        "timeout": "the engine's low-speed limit applies (a total limit is max-time)",
        "lowest-speed-limit": "the engine's low-speed limit applies (ferry get --low-speed-limit)",
        "http-proxy": "give all-proxy", "https-proxy": "give all-proxy",
        // aria2's session files carry each download's GID.
        "gid": "Ferry numbers the tasks it adds",
    ]

    private static let byName: [String: Option] = Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// `option(named:)` is the option called `name`, if Ferry has one.
    public static func option(named name: String) -> Option? {
        byName[name]
    }

    /// `read(_:_:into:)` reads option `key`'s `value` into `draft`: throws for a bad value or a
    /// malformed key; returns why it is ignored (an option Ferry reads but does not apply, or
    /// one it does not know), `nil` when applied.
    public static func read(_ key: String, _ value: String, into draft: inout TaskDraft) throws(QueueError) -> String? {
        guard !key.isEmpty else { throw .input(.malformedOption) }
        guard let option = byName[key] else { return ignored[key] ?? "not an option Ferry knows" }
        return try option.read(value, &draft)
    }

    // MARK: - Checks

    static func invalid(_ name: String, _ detail: String) -> QueueError {
        .input(.invalidOption(name: name, detail: detail))
    }

    /// `flag(_:_:)` reads `true` or `false`.
    /// `seconds(_:_:)` reads a number of seconds, 0.001 to a year (fractions allowed).
    static func seconds(_ key: String, _ value: String) throws(QueueError) -> Double {
        guard let seconds = Double(value.trimmingCharacters(in: .whitespaces)), seconds.isFinite,
              seconds >= 0.001, seconds <= 365 * 86_400 else {
            throw invalid(key, "must be a number of seconds, 0.001 to 31536000")
        }
        return seconds
    }

    /// `secondsText(_:)` writes seconds as `seconds(_:_:)` reads them back: whole ones without a fraction.
    public static func secondsText(_ seconds: Double) -> String {
        seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
    }

    static func flag(_ key: String, _ value: String) throws(QueueError) -> Bool {
        switch value.lowercased() {
        case "true": return true
        case "false": return false
        default: throw invalid(key, "expected true or false")
        }
    }

    /// `connections(_:_:)` reads a connection count from 1 to 16.
    static func connections(_ key: String, _ value: String) throws(QueueError) -> Int {
        guard let count = Int(value), TaskOptions.connectionRange.contains(count) else {
            throw invalid(key, "expected 1 to 16 connections")
        }
        return count
    }

    /// `absolute(_:)` is `path` against the current directory, as every path a task keeps is
    /// stored (the engine that runs the task may be a daemon elsewhere in the file system).
    public static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path).standardized.path
    }

    /// `readableFile(_:_:)` is the absolute path of a file this process can read now.
    static func readableFile(_ key: String, _ value: String) throws(QueueError) -> String {
        guard !value.isEmpty, !value.contains("\0") else { throw invalid(key, "must be a file path") }
        let path = absolute(value)
        guard access(path, R_OK) == 0 else { throw invalid(key, "\(path): \(String(cString: strerror(errno)))") }
        return path
    }

    /// `proxy(_:)` checks a proxy URL: a scheme Ferry takes and a host.
    static func proxy(_ value: String) throws(QueueError) -> String {
        guard let components = URLComponents(string: value), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty else {
            throw invalid("all-proxy", "\(URLMasking.mask(value)) is not a URL (e.g. http://proxy:3128 or socks5h://127.0.0.1:1080)")
        }
        guard ProxySettings.schemes.contains(scheme) else {
            throw invalid("all-proxy", "the scheme \(scheme) is not one of http, https, socks5, socks5h, socks4a")
        }
        return value
    }
}

extension TaskDraft {
    /// `given(_:)` records that option `name` was set; `nil` (applied) for the table's readers.
    mutating func given(_ name: String) -> String? {
        given.insert(name)
        return nil
    }
}
