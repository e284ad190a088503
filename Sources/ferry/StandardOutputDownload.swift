import FerryKit
import Foundation

/// `StandardOutputDownload` is `ferry get URL -o -`: one GET whose accepted (2xx) body is
/// written to standard output as it arrives, so `ferry get URL -o - | tar x` works. Progress
/// and messages go to stderr; there is no `.part`, no journal row and no retry (the bytes
/// already written cannot be taken back). An error page is not written: the status is 1.
struct StandardOutputDownload {
    /// The most bytes of a rejected reply kept for the error message.
    static let errorLimit = 64 << 10

    let request: Request
    let configuration: SessionConfiguration
    let style: Reporter.Style

    /// `run()` makes the request and ends with the exit status of a normal `ferry get`.
    func run() async throws -> Never {
        let reporter = Reporter(style: style, jobCount: 1, verb: "downloading")
        let session = SessionManager(configuration: configuration)
        let following = reporter.follow(session)
        let sink = StandardOutputSink(descriptor: STDOUT_FILENO)
        let request = request
        let job = TransferJob(label: URLMasking.mask(request.url)) { session in
            session.task(kind: .data, request: request,
                         delegate: ReplyTaskDelegate(keeping: StandardOutputDownload.errorLimit, sink: sink))
        }
        let trap = SignalTrap.install { signal in
            session.invalidate()
            reporter.clearLine()
            Console.error("interrupted; the download to standard output was cancelled")
            Foundation.exit(signal == SIGINT ? 130 : 128 + signal)
        }
        let outcomes = await TransferRunner(session: session, concurrency: 1, reporter: reporter).run([job])
        trap.cancel()
        session.invalidate()
        await following.value
        reporter.clearLine()
        guard case .success(let result) = outcomes.first else { throw ExitStatus.summarizing(outcomes) }
        guard result.response.isSuccess else {
            Console.error("\(URLMasking.mask(request.url)): HTTP \(result.response.statusCode); nothing was written to standard output")
            throw ExitStatus.transferFailed
        }
        throw ExitStatus.success
    }
}

/// `StandardOutputSink` writes an accepted (2xx) reply body to a file descriptor as it
/// arrives, every byte, retrying short writes and EINTR; a closed pipe stops the transfer.
/// `@unchecked Sendable`: used on the engine thread only, while the transfer runs.
final class StandardOutputSink: ReplySink, @unchecked Sendable {
    private let descriptor: Int32
    private var accepted = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func reply(_ response: HTTPResponse) throws(FerryError) {
        accepted = response.isSuccess
    }

    func reply(body bytes: UnsafeRawBufferPointer) throws(FerryError) {
        guard accepted, let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw .file(.from(errno: errno, path: "standard output", operation: "write"))
            }
            offset += written
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
        request.securityPolicy = connection.policy
        request.login = connection.login
        request.proxy = connection.proxy
        request.usesNetrc = connection.netrc.uses
        request.netrcFile = connection.netrc.file
        request.cookieFiles = connection.cookieFiles
        request.cookieJar = connection.cookieJar
        request.acceptsCompression = options.compressed
        request.connectTimeout = connection.settings.connectTimeout
        request.maximumTime = connection.settings.maximumTime
        let style = Reporter.Style(json: options.json)
        var configuration = SessionConfiguration()
        configuration.trustManager = trustManager
        if options.verbose {
            let reporter = Reporter(style: style, jobCount: 1, verb: "downloading")
            configuration.headTrace = { trace in reporter.showHead(trace) }
        }
        try await StandardOutputDownload(request: request, configuration: configuration, style: style).run()
    }
}
