/// `Aria2OptionDefaults` are aria2 1.36's options with their default values, as its
/// `getGlobalOption` answers them on a fresh start (128 keys; `~` stands for the home
/// directory): `getOption` and `getGlobalOption` answer every key, with Ferry's own value
/// where it has one (`Aria2Options`) and aria2's default for a key Ferry does not use.
enum Aria2OptionDefaults {
    /// `Scope` says where aria2 answers a key: `task` keys in `getOption` too (aria2's
    /// options of a download), `global` ones only in `getGlobalOption`.
    enum Scope {
        case task, global
    }

    /// `Default` is one option: its name, aria2's default value and its scope.
    struct Default {
        let name: String
        let value: String
        let scope: Scope

        init(_ name: String, _ value: String, _ scope: Scope) {
            self.name = name
            self.value = value
            self.scope = scope
        }
    }

    /// `all` is every option aria2 answers by default, by name.
    static let all: [Default] = [
        Default("allow-overwrite", "false", .task),
        Default("allow-piece-length-change", "false", .task),
        Default("always-resume", "true", .task),
        Default("async-dns", "true", .task),
        Default("auto-file-renaming", "true", .task),
        Default("auto-save-interval", "60", .global),
        Default("bt-detach-seed-only", "false", .global),
        Default("bt-enable-hook-after-hash-check", "true", .task),
        Default("bt-enable-lpd", "false", .task),
        Default("bt-force-encryption", "false", .task),
        Default("bt-hash-check-seed", "true", .task),
        Default("bt-load-saved-metadata", "false", .task),
        Default("bt-max-open-files", "100", .global),
        Default("bt-max-peers", "55", .task),
        Default("bt-metadata-only", "false", .task),
        Default("bt-min-crypto-level", "plain", .task),
        Default("bt-remove-unselected-file", "false", .task),
        Default("bt-request-peer-speed-limit", "51200", .task),
        Default("bt-require-crypto", "false", .task),
        Default("bt-save-metadata", "false", .task),
        Default("bt-seed-unverified", "false", .task),
        Default("bt-stop-timeout", "0", .task),
        Default("bt-tracker-connect-timeout", "60", .task),
        Default("bt-tracker-interval", "0", .task),
        Default("bt-tracker-timeout", "60", .task),
        Default("ca-certificate", "/etc/ssl/certs/ca-certificates.crt", .global),
        Default("check-certificate", "true", .global),
        Default("check-integrity", "false", .task),
        Default("conditional-get", "false", .task),
        Default("conf-path", "~/.config/aria2/aria2.conf", .global),
        Default("connect-timeout", "60", .task),
        Default("console-log-level", "notice", .global),
        Default("content-disposition-default-utf8", "false", .task),
        Default("continue", "false", .task),
        Default("daemon", "false", .global),
        Default("deferred-input", "false", .global),
        Default("dht-file-path", "~/.cache/aria2/dht.dat", .global),
        Default("dht-file-path6", "~/.cache/aria2/dht6.dat", .global),
        Default("dht-listen-port", "6881-6999", .global),
        Default("dht-message-timeout", "10", .global),
        Default("dir", "/tmp/a2", .task),
        Default("disable-ipv6", "false", .global),
        Default("disk-cache", "16777216", .global),
        Default("download-result", "default", .global),
        Default("dry-run", "false", .task),
        Default("dscp", "0", .global),
        Default("enable-color", "true", .global),
        Default("enable-dht", "true", .global),
        Default("enable-dht6", "false", .global),
        Default("enable-http-keep-alive", "true", .task),
        Default("enable-http-pipelining", "false", .task),
        Default("enable-mmap", "false", .task),
        Default("enable-peer-exchange", "true", .task),
        Default("enable-rpc", "true", .global),
        Default("event-poll", "epoll", .global),
        Default("file-allocation", "prealloc", .task),
        Default("follow-metalink", "true", .task),
        Default("follow-torrent", "true", .task),
        Default("force-save", "false", .task),
        Default("ftp-pasv", "true", .task),
        Default("ftp-reuse-connection", "true", .task),
        Default("ftp-type", "binary", .task),
        Default("hash-check-only", "false", .task),
        Default("help", "#basic", .global),
        Default("http-accept-gzip", "false", .task),
        Default("http-auth-challenge", "false", .task),
        Default("http-no-cache", "false", .task),
        Default("human-readable", "true", .global),
        Default("keep-unfinished-download-result", "true", .global),
        Default("listen-port", "6881-6999", .global),
        Default("log-level", "debug", .global),
        Default("lowest-speed-limit", "0", .task),
        Default("max-concurrent-downloads", "5", .global),
        Default("max-connection-per-server", "1", .task),
        Default("max-download-limit", "0", .task),
        Default("max-download-result", "1000", .global),
        Default("max-file-not-found", "0", .task),
        Default("max-mmap-limit", "9223372036854775807", .task),
        Default("max-overall-download-limit", "0", .global),
        Default("max-overall-upload-limit", "0", .global),
        Default("max-resume-failure-tries", "0", .task),
        Default("max-tries", "5", .task),
        Default("max-upload-limit", "0", .task),
        Default("metalink-enable-unique-protocol", "true", .task),
        Default("metalink-preferred-protocol", "none", .task),
        Default("min-split-size", "20971520", .task),
        Default("min-tls-version", "TLSv1.2", .global),
        Default("netrc-path", "~/.netrc", .global),
        Default("no-conf", "false", .global),
        Default("no-file-allocation-limit", "5242880", .task),
        Default("no-netrc", "false", .task),
        Default("optimize-concurrent-downloads", "false", .global),
        Default("parameterized-uri", "false", .task),
        Default("pause-metadata", "false", .task),
        Default("peer-agent", "aria2/1.36.0", .global),
        Default("peer-id-prefix", "A2-1-36-0-", .global),
        Default("piece-length", "1048576", .task),
        Default("proxy-method", "get", .task),
        Default("quiet", "false", .global),
        Default("realtime-chunk-checksum", "true", .task),
        Default("remote-time", "false", .task),
        Default("remove-control-file", "false", .task),
        Default("retry-wait", "0", .task),
        Default("reuse-uri", "true", .task),
        Default("rlimit-nofile", "1024", .global),
        Default("rpc-allow-origin-all", "false", .global),
        Default("rpc-listen-all", "false", .global),
        Default("rpc-listen-port", "6800", .global),
        Default("rpc-max-request-size", "2097152", .global),
        Default("rpc-save-upload-metadata", "true", .task),
        Default("rpc-secure", "false", .global),
        Default("save-not-found", "true", .task),
        Default("save-session-interval", "0", .global),
        Default("seed-ratio", "1.0", .task),
        Default("server-stat-timeout", "86400", .global),
        Default("show-console-readout", "true", .global),
        Default("show-files", "false", .global),
        Default("socket-recv-buffer-size", "0", .global),
        Default("split", "5", .task),
        Default("stderr", "false", .global),
        Default("stop", "0", .global),
        Default("stream-piece-selector", "default", .task),
        Default("summary-interval", "60", .global),
        Default("timeout", "60", .task),
        Default("truncate-console-readout", "true", .global),
        Default("uri-selector", "feedback", .task),
        Default("use-head", "false", .task),
        Default("user-agent", "aria2/1.36.0", .task),
    ]

    /// `byName` finds an option of `all`.
    static let byName: [String: Default] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
}
