import FerryKit
import Foundation

/// `StandardOutputDownload` is `ferry get URL -o -`: a GET whose accepted (2xx) body is
/// written to standard output as it arrives, so `ferry get URL -o - | tar x` works. Progress
/// and messages go to stderr; there is no `.part` and no journal row. An error page is not
/// written: the status is 1. A transfer that drops is tried again as `--retries` allows
/// (wget's `-O -` does the same): from the start while nothing was written, else from the
/// next byte with `Range` and `If-Range`, and only a 206 for exactly that byte of the same
/// representation (same validator and length) is written on; anything else ends the run,
/// since the bytes already written cannot be taken back.
struct StandardOutputDownload {
    /// The most bytes of a rejected reply kept for the error message.
    static let errorLimit = 64 << 10

    let request: Request
    let configuration: SessionConfiguration
    let style: Reporter.Style
    let retryPolicy: RetryPolicy

    /// `run()` makes the request and ends with the exit status of a normal `ferry get`.
    func run() async throws -> Never {
        let reporter = Reporter(style: style, jobCount: 1, verb: "downloading")
        let session = SessionManager(configuration: configuration)
        let following = reporter.follow(session)
        let sink = StandardOutputSink(descriptor: STDOUT_FILENO)
        let trap = SignalTrap.install { signal in
            session.invalidate()
            reporter.clearLine()
            Console.error("interrupted; the download to standard output was cancelled")
            Foundation.exit(signal == SIGINT ? 130 : 128 + signal)
        }
        let label = URLMasking.mask(request.url)
        var attempt = 1
        var outcome: Result<TransferResult, FerryError>
        while true {
            var attemptRequest = request
            for (name, value) in sink.continuationHeaders() { attemptRequest.headers[name] = value }
            let task = session.task(kind: .data, request: attemptRequest,
                                    delegate: ReplyTaskDelegate(keeping: StandardOutputDownload.errorLimit, sink: sink))
            reporter.started(job: 0, label: label, task: task, attempt: attempt)
            task.resume()
            outcome = await task.outcome()
            reporter.ended(job: 0, task: task, outcome: outcome)
            guard case .failure(let error) = outcome, retryPolicy.shouldRetry(error, afterAttempt: attempt),
                  let from = sink.continuationOffset() else { break }
            let delay = retryPolicy.delay(afterAttempt: attempt)
            reporter.clearLine()
            Console.error("\(label): \(error.description); trying again in \(Int(delay.rounded(.up))) s "
                + (from > 0 ? "from byte \(from)" : "from the start (nothing was written yet)"))
            try? await Task.sleep(for: .seconds(delay))
            attempt += 1
        }
        reporter.finished(job: 0, outcome: outcome)
        trap.cancel()
        session.invalidate()
        await following.value
        reporter.clearLine()
        guard case .success(let result) = outcome else { throw ExitStatus.summarizing([outcome]) }
        guard result.response.isSuccess else {
            Console.error("\(label): HTTP \(result.response.statusCode); nothing was written to standard output")
            throw ExitStatus.transferFailed
        }
        throw ExitStatus.success
    }
}

/// `StandardOutputSink` writes an accepted (2xx) reply body to a file descriptor as it
/// arrives, every byte, retrying short writes and EINTR; a closed pipe stops the transfer.
/// It counts what it wrote and keeps the first reply's validators, so that a dropped
/// transfer can go on from the next byte (`continuationHeaders()`), and it refuses a reply to
/// such a request that is not exactly that byte onwards of the same representation.
/// `@unchecked Sendable`: `reply` runs on the engine thread while a transfer runs; the
/// continuation methods on the command's task between transfers, never at the same time.
final class StandardOutputSink: ReplySink, @unchecked Sendable {
    private let descriptor: Int32
    private var accepted = false
    /// Bytes written so far, over every attempt.
    private var written: Int64 = 0
    /// The first accepted reply's strong ETag, Last-Modified and total length.
    private var entityTag: String?
    private var lastModified: String?
    private var total: Int64?
    /// Whether the first accepted reply allows going on from a byte: ranges not refused, a
    /// validator, no content coding (its ranges would count coded bytes).
    private var continuable = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The offset a new attempt starts from: 0 while nothing was written, else the next byte
    /// when the reply allows it; `nil` when the run cannot go on.
    func continuationOffset() -> Int64? {
        written == 0 ? 0 : (continuable ? written : nil)
    }

    /// The headers of a request for the rest: `Range` from the next byte and `If-Range` with
    /// the validator; none while nothing was written.
    func continuationHeaders() -> [(String, String)] {
        guard written > 0, let validator = entityTag ?? lastModified else { return [] }
        return [("Range", "bytes=\(written)-"), ("If-Range", validator)]
    }

    func reply(_ response: HTTPResponse) throws(FerryError) {
        guard written > 0 else {
            accepted = response.isSuccess
            guard accepted else { return }
            let tag = response.headers["ETag"].flatMap { $0.hasPrefix("W/") ? nil : $0 }
            entityTag = tag
            lastModified = response.headers["Last-Modified"]
            total = response.headers["Content-Length"].flatMap { Int64($0) }
            let coded = response.headers["Content-Encoding"].map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
            continuable = !coded && response.headers["Accept-Ranges"]?.lowercased() != "none" && (tag != nil || lastModified != nil)
            return
        }
        // A request for the rest: exactly the next byte of the same representation, or nothing.
        let range = response.headers["Content-Range"].flatMap { ContentRange(parsing: $0) }
        guard response.statusCode == 206, case .bytes(let first, _, let length)? = range, first == written,
              total == nil || length == total else {
            throw .integrity(.resumeRejected("the server did not send the rest from byte \(written) "
                + "(HTTP \(response.statusCode)); standard output holds the first \(written) bytes only"))
        }
        if let entityTag, response.headers["ETag"] != entityTag {
            throw .integrity(.resumeRejected("the file changed on the server (its ETag); standard output holds the first \(written) bytes of the old one"))
        }
        if entityTag == nil, let lastModified, response.headers["Last-Modified"] != lastModified {
            throw .integrity(.resumeRejected("the file changed on the server (its Last-Modified); standard output holds the first \(written) bytes of the old one"))
        }
        accepted = true
    }

    func reply(body bytes: UnsafeRawBufferPointer) throws(FerryError) {
        guard accepted, let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let count = write(descriptor, base + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                throw .file(.from(errno: errno, path: "standard output", operation: "write"))
            }
            offset += count
            written += Int64(count)
        }
    }
}

extension GetCommand {
    /// `standardOutputDownload(_:...)` runs `ferry get URL -o -` with this command's request
    /// options (headers, rate, stall limits, TLS, login, proxy, cookies); it never returns.
    func standardOutputDownload(_ url: URL, headers: HTTPHeaders, rate: Int64?, lowSpeed: (limit: Int?, time: Int?),
                                connection: ConnectionArguments, trustManager: ServerTrustManager?) async throws -> Never {
        // Standard output holds the body only; a digest, a split or a resume needs a file.
        var refused: [String] = []
        if options.json { refused.append("--json (its events go to stdout)") }
        if options.checksum != nil { refused.append("--checksum") }
        if let connections = options.connections, connections > 1 { refused.append("-x/--connections") }
        if options.overwrite || options.contentDisposition { refused.append("--overwrite and --content-disposition (no file is named)") }
        guard refused.isEmpty else {
            Console.error("-o - writes the body to stdout; it cannot go with \(refused.joined(separator: ", "))")
            throw ExitStatus.usage
        }
        var request = Request(url: url)
        request.headers = headers
        request.maximumReceiveSpeed = rate
        request.lowSpeedLimit = lowSpeed.limit
        request.lowSpeedTime = lowSpeed.time
        connection.apply(to: &request)
        request.acceptsCompression = options.compressed
        let style = Reporter.Style(json: options.json)
        var configuration = SessionConfiguration()
        configuration.trustManager = trustManager
        if options.verbose {
            let reporter = Reporter(style: style, jobCount: 1, verb: "downloading")
            configuration.headTrace = { trace in reporter.showHead(trace) }
        }
        try await StandardOutputDownload(request: request, configuration: configuration, style: style,
                                         retryPolicy: options.retryPolicy).run()
    }
}
