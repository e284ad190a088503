import ArgumentParser
import FerryKit
import FerryQueue
import Foundation

/// `DownloadOptions` are the options `ferry get` (and later `ferry add`) take for downloads.
struct DownloadOptions: ParsableArguments {
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Save as PATH (one URL only): a bare name goes into the download directory; a path with '/' is taken as curl takes it (absolute, or relative to -d DIR when given, else the current directory), missing directories created. '-' writes the body to stdout (no .part, nothing queued).", valueName: "PATH"))
    var output: String?

    @Option(name: [.short, .customLong("dir")], help: "Save into DIR (created if missing). Default: $XDG_DOWNLOAD_DIR, else ~/Downloads if it exists, else the current directory.")
    var dir: String?

    @Option(name: [.customShort("H"), .customLong("header")], help: "Send the header 'Name: value', or the lines of FILE with @FILE (repeatable).")
    var headers: [String] = []

    @OptionGroup var request: RequestLimitOptions

    @Option(name: .customLong("query"), help: ArgumentHelp("Append the parameter key=value to each URL with AFNetworking's encoding; a[b]=v nests, a[]=v appends (repeatable).", valueName: "key=value"))
    var query: [String] = []

    @Option(help: "Retries after a transient failure (connection errors, 408, 429, 5xx); a refused connection is retried twice unless this is given.")
    var retries: Int = RetryPolicy.defaultRetryLimit

    @Option(name: .customLong("limit-rate"), help: "Cap each transfer's speed, e.g. 500K or 2M (bytes per second).")
    var limitRate: String?

    @Option(name: .customLong("low-speed-limit"), help: ArgumentHelp("A transfer slower than this (bytes per second, e.g. 1K) for --low-speed-time seconds is stalled and retried. Default: 1K. A --limit-rate below it lowers it, so throttling is never a stall.", valueName: "RATE"))
    var lowSpeedLimit: String?

    @Option(name: .customLong("low-speed-time"), help: ArgumentHelp("Seconds below --low-speed-limit before a transfer counts as stalled. Default: 60.", valueName: "SECONDS"))
    var lowSpeedTime: Int?

    @Option(name: [.customShort("x"), .customLong("connections")], help: ArgumentHelp("Fetch each file over up to N connections (1-16), every range validated (If-Range) against the first reply. Every connection counts against --max-concurrent and --max-per-host, which -x raises to N for this run. Default: 1, the one connection per file a server expects; measured against a server capping each connection at 10 MiB/s, -x 8 fetched 256 MiB in 3.4 s (the cap allows 25.6 s to one connection), and unthrottled -x 4 cost 7% more CPU than -x 1.", valueName: "N"))
    var connections: Int?

    @Option(name: .customLong("min-split-size"), help: ArgumentHelp("Split no range with less than twice SIZE left, e.g. 1M or 20M. Default: 1M.", valueName: "SIZE"))
    var minSplitSize: String?

    @Flag(help: "Replace an existing file instead of saving as NAME.1.EXT.")
    var overwrite = false

    @OptionGroup var limits: EngineLimits

    @OptionGroup var hooks: HookOptions

    @Flag(help: "Print events as JSON lines on stdout.")
    var json = false

    @Flag(name: [.short, .long], help: "Print errors only: no progress, no \"saved\" lines.")
    var quiet = false

    @Flag(name: .customLong("compressed"), help: "Ask for a compressed body (gzip, deflate, br, zstd) and save it decoded, as curl --compressed does; a resume asks for none.")
    var compressed = false

    @Flag(name: .customLong("no-metalink-http"), help: "Leave the mirrors (Link: rel=duplicate) and digest (Digest, Repr-Digest) a response names unused (Metalink/HTTP, RFC 6249).")
    var noMetalinkHTTP = false

    @Flag(name: [.short, .long], help: "Print each request and response head on stderr (\"> \" sent, \"< \" received), secrets masked, as curl -v does.")
    var verbose = false

    @OptionGroup(title: "TLS") var trust: TrustOptions

    @OptionGroup(title: "Logins and proxy") var login: LoginOptions

    @Option(name: [.customShort("M"), .customLong("metalink-file")], help: ArgumentHelp("Download the files of a Metalink (4, RFC 5854, or 3.0): each from its sources, best first, checked against its hash (repeatable; FILE.meta4 as an argument works too).", valueName: "FILE"))
    var metalinkFiles: [String] = []

    @Option(name: .customLong("metalink-location"), help: ArgumentHelp("With a Metalink: try the sources in these countries first (ISO 3166 codes, comma-separated).", valueName: "CODES"))
    var metalinkLocation: String?

    @Option(name: .customLong("metalink-preferred-protocol"), help: ArgumentHelp("With a Metalink: try this protocol's sources first (http, https or none).", valueName: "PROTO"))
    var metalinkPreferredProtocol: String?

    @Option(name: .customLong("follow-metalink"), help: ArgumentHelp("A URL ending in .meta4 or .metalink that serves a Metalink: true (the default) or mem downloads its files, false saves the document.", valueName: "true|false|mem"))
    var followMetalink: String?

    @Option(name: .customLong("checksum"), help: ArgumentHelp("Check the file's digest: sha-256=HEX (also sha-1, sha-512, md5). On a mismatch the file does not take its name and the exit status is 3.", valueName: "ALGO=HEX"))
    var checksum: String?

    @Flag(name: .customLong("content-disposition"), help: "Name the file as the server suggests (Content-Disposition), reduced to a safe name.")
    var contentDisposition = false

    /// The parsed headers; an invalid one is a usage error.
    func parsedHeaders() throws(FerryError) -> HTTPHeaders {
        var result = HTTPHeaders()
        for line in try HeaderArguments.expand(headers) {
            let field = try HTTPHeaders.parseLine(line)
            result.add(name: field.name, value: field.value)
        }
        try request.apply(to: &result)
        return result
    }

    /// `--checksum` parsed, `nil` when not given.
    func parsedChecksum() throws(FerryError) -> ExpectedChecksum? {
        try checksum.map { text throws(FerryError) in try ExpectedChecksum(parsing: text) }
    }

    /// `--low-speed-limit` and `--low-speed-time`, `nil` where not given.
    func parsedLowSpeed() throws(FerryError) -> (limit: Int?, time: Int?) {
        var limit: Int?
        if let lowSpeedLimit {
            guard let rate = TaskOptions.parseByteCount(lowSpeedLimit), rate > 0, rate <= Int64(Int32.max) else {
                throw .input(.invalidOption("invalid --low-speed-limit \"\(lowSpeedLimit.displayable)\": expected a number of bytes per second with an optional K, M or G suffix"))
            }
            limit = Int(rate)
        }
        if let lowSpeedTime, !(1...86_400).contains(lowSpeedTime) {
            throw .input(.invalidOption("invalid --low-speed-time \(lowSpeedTime): expected 1 to 86400 seconds"))
        }
        return (limit, lowSpeedTime)
    }

    /// `--limit-rate` in bytes per second, `nil` when not given.
    func parsedRate() throws(FerryError) -> Int64? {
        guard let limitRate else { return nil }
        guard let rate = TaskOptions.parseByteCount(limitRate), rate > 0 else {
            throw .input(.invalidOption("invalid --limit-rate \"\(limitRate)\": expected a number with an optional K, M or G suffix"))
        }
        return rate
    }

    /// `retryPolicy` is the retry policy of this run: `--retries`, which also sets the
    /// retries of a refused connection when it is given (else two, so that a server that
    /// is not there is given up within about 3 s).
    var retryPolicy: RetryPolicy {
        let given = retries != RetryPolicy.defaultRetryLimit
        return RetryPolicy(retryLimit: retries, connectRetryLimit: given ? retries : RetryPolicy.defaultConnectRetryLimit)
    }
}
