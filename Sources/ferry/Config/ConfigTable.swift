import FerryKit
import FerryQueue

extension ConfigOption {
    /// `table` is every option the configuration file sets, in the order `ferry config` shows them.
    static let table: [ConfigOption] = [
        ConfigOption(key: "dir", effect: .value("--dir"), commands: [.get, .add, .resume, .daemon, .tui],
                     builtIn: "$XDG_DOWNLOAD_DIR, else ~/Downloads, else the current directory", note: "where downloads are saved"),
        ConfigOption(key: "state-dir", effect: .value("--state-dir"), commands: [.get, .add, .resume, .daemon, .tui],
                     builtIn: "$FERRY_STATE_DIR, else $XDG_STATE_HOME/ferry", note: "the queue's journal (Ferry's own)"),
        ConfigOption(key: "max-concurrent-downloads", effect: .custom { value throws(ConfigMessage) in
            ["--max-concurrent", String(try positive(value, key: "max-concurrent-downloads"))]
        }, commands: [.get, .resume, .daemon, .tui], builtIn: "\(SchedulerConfiguration.defaultMaximumConcurrent)", note: "transfers at once"),
        ConfigOption(key: "max-per-host", effect: .custom { value throws(ConfigMessage) in
            ["--max-per-host", String(try positive(value, key: "max-per-host"))]
        }, commands: [.get, .resume, .daemon, .tui], builtIn: "\(SchedulerConfiguration.defaultMaximumPerHost)", note: "transfers at once to one host (Ferry's own)"),
        ConfigOption(key: "max-tries", effect: .custom { value throws(ConfigMessage) in
            guard let tries = Int(value), tries >= 0 else { throw ConfigMessage("max-tries is a whole number (0: no end), not \(value.displayable)") }
            // aria2's 0 is "no end": taken as 100 tries.
            return ["--retries", String(tries == 0 ? 99 : tries - 1)]
        }, commands: [.get, .add], builtIn: "\(RetryPolicy.defaultRetryLimit + 1)", note: "tries of a transfer (retries + 1; 0 is taken as 100)"),
        ConfigOption(key: "max-download-limit", effect: .custom { value throws(ConfigMessage) in
            ["--limit-rate", try rate(value, key: "max-download-limit")]
        }, commands: [.get, .add], builtIn: "0 (none)", note: "speed cap of each download"),
        ConfigOption(key: "max-overall-download-limit", effect: .custom { value throws(ConfigMessage) in
            ["--overall-limit", try rate(value, key: "max-overall-download-limit")]
        }, commands: [.get, .resume, .daemon, .tui], builtIn: "0 (none)", note: "speed of all downloads together"),
        ConfigOption(key: "max-overall-upload-limit", effect: .custom { value throws(ConfigMessage) in
            ["--overall-upload-limit", try rate(value, key: "max-overall-upload-limit")]
        }, commands: [.get, .resume, .daemon, .tui], builtIn: "0 (none)", note: "speed of all uploads together"),
        ConfigOption(key: "split", effect: .other, commands: [.get, .add],
                     builtIn: "1", note: "connections per file (-x; with max-connection-per-server, the smaller)"),
        ConfigOption(key: "max-connection-per-server", effect: .other, commands: [.get, .add],
                     builtIn: "1", note: "connections per file (-x; with split, the smaller)"),
        ConfigOption(key: "min-split-size", effect: .value("--min-split-size"), commands: [.get, .add],
                     builtIn: "1M", note: "no range with less than twice this left is split"),
        ConfigOption(key: "lowest-speed-limit", effect: .custom { value throws(ConfigMessage) in
            ["--low-speed-limit", try rate(value, key: "lowest-speed-limit")]
        }, commands: [.get], builtIn: "1K", note: "slower than this for the low-speed time is a stall"),
        ConfigOption(key: "user-agent", effect: .custom { value throws(ConfigMessage) in ["-H", "User-Agent: \(value)"] },
                     commands: [.get, .add, .put], builtIn: FerryVersion.userAgent, note: "the User-Agent header"),
        ConfigOption(key: "header", effect: .custom { value throws(ConfigMessage) in ["-H", value] },
                     commands: [.get, .add, .put], builtIn: "none", note: "a header sent with every request (repeatable)"),
        ConfigOption(key: "allow-overwrite", effect: .flag("--overwrite"), commands: [.get, .add],
                     builtIn: "false", note: "replace an existing file instead of NAME.1.EXT"),
        ConfigOption(key: "check-certificate", effect: .inverseFlag("--insecure"), commands: [.get, .add, .put],
                     builtIn: "true", note: "false skips TLS checks (with a warning; kept with queued tasks)"),
        ConfigOption(key: "ca-certificate", effect: .value("--cacert"), commands: [.get, .add, .put],
                     builtIn: "the system's authorities", note: "trusted authorities (PEM)"),
        ConfigOption(key: "trust", effect: .custom { value throws(ConfigMessage) in
            if let reason = TrustRuleOptions.checkSyntax(value) { throw ConfigMessage("trust \(value.displayable): \(reason)") }
            return ["--trust", value]
        }, commands: [.get, .put, .resume, .daemon, .tui], builtIn: "none",
                     note: "TLS for one host: HOST OPTION=VALUE ..., as --trust (repeatable; Ferry's own)"),
        ConfigOption(key: "all-proxy", effect: .value("--proxy"), commands: [.get, .add, .put],
                     builtIn: "the environment's (http_proxy, ...)", note: "the proxy"),
        ConfigOption(key: "no-proxy", effect: .value("--noproxy"), commands: [.get, .add, .put],
                     builtIn: "none", note: "hosts reached without the proxy"),
        ConfigOption(key: "http-user", effect: .other, commands: [.get, .add, .put],
                     builtIn: "none", note: "with http-passwd: the login (-u)"),
        ConfigOption(key: "http-passwd", effect: .other, commands: [.get, .add, .put],
                     builtIn: "none", note: "the password of http-user"),
        ConfigOption(key: "netrc-path", effect: .value("--netrc-file"), commands: [.get, .add, .put],
                     builtIn: "~/.netrc", note: "logins by host"),
        ConfigOption(key: "no-netrc", effect: .flag("--no-netrc"), commands: [.get, .add, .put],
                     builtIn: "false", note: "true: no .netrc"),
        ConfigOption(key: "load-cookies", effect: .value("--cookie"), commands: [.get, .add, .put],
                     builtIn: "none", note: "a cookie file (Netscape format)"),
        ConfigOption(key: "save-cookies", effect: .value("--cookie-jar"), commands: [.get, .add, .put],
                     builtIn: "none", note: "the cookie jar written at the end"),
        ConfigOption(key: "on-download-complete", effect: .value("--on-complete"), commands: [.get, .resume, .daemon, .tui],
                     builtIn: "none", note: "a command run for each saved file"),
        ConfigOption(key: "on-download-error", effect: .value("--on-error"), commands: [.get, .resume, .daemon, .tui],
                     builtIn: "none", note: "a command run for each failed download"),
        ConfigOption(key: "rpc-listen-port", effect: .custom { value throws(ConfigMessage) in
            let port = try positive(value, key: "rpc-listen-port")
            guard port <= 65535 else { throw ConfigMessage("rpc-listen-port is 1-65535, not \(value.displayable)") }
            return ["--rpc-port", String(port)]
        }, commands: [.daemon], builtIn: "none (control.sock only)", note: "the daemon's TCP port"),
        ConfigOption(key: "save-session", effect: .value("--save-session"), commands: [.daemon],
                     builtIn: "none", note: "the session file written on aria2.saveSession and at exit"),
        ConfigOption(key: "rpc-listen-all", effect: .flag("--rpc-listen-all"), commands: [.daemon],
                     builtIn: "false", note: "listen on every interface"),
        ConfigOption(key: "rpc-allow-origin-all", effect: .flag("--rpc-allow-origin-all"), commands: [.daemon],
                     builtIn: "false", note: "let web front ends of any origin call"),
        ConfigOption(key: "rpc-secret", effect: .other, commands: [.daemon],
                     builtIn: "$FERRY_RPC_SECRET", note: "the RPC secret (taken as $FERRY_RPC_SECRET when that is unset)"),
        ConfigOption(key: "bell", effect: .flag("--bell"), commands: [.tui],
                     builtIn: "false", note: "ring the terminal's bell when the queue empties (Ferry's own)"),
        ConfigOption(key: "enable-rpc", effect: .always, commands: [], builtIn: "true", note: "the daemon always serves RPC"),
        ConfigOption(key: "continue", effect: .always, commands: [], builtIn: "true", note: "Ferry always resumes a partial file"),
        ConfigOption(key: "auto-file-renaming", effect: .always, commands: [], builtIn: "true",
                     note: "Ferry always saves as NAME.1.EXT rather than replace (see allow-overwrite)"),
    ]

    /// `named(_:)` is the option called `key`, if Ferry has one.
    static func named(_ key: String) -> ConfigOption? {
        table.first { $0.key == key }
    }
}
