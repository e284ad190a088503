import ArgumentParser
import FerryKit
import Foundation

/// `GetCommand` is `ferry get URL...`: download now, headless, and exit when done.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Download URLs now, headless; progress on stderr.",
        discussion: "The file name comes from the URL path unless -o is given. An existing file is never replaced without --overwrite: the new one is saved as NAME.1.EXT, NAME.2.EXT, ..."
    )

    @Argument(help: "The http or https URLs to download.")
    var urls: [String]

    @OptionGroup var options: DownloadOptions

    func run() async throws {
        // Check every input before anything is sent.
        var parsed: [URL] = []
        var inputErrors: [FerryError] = []
        for text in urls {
            do throws(FerryError) {
                parsed.append(try Request.validatedURL(text))
            } catch {
                inputErrors.append(error)
            }
        }
        var headers = HTTPHeaders()
        var rate: Int64?
        do throws(FerryError) {
            headers = try options.parsedHeaders()
            rate = try options.parsedRate()
        } catch {
            inputErrors.append(error)
        }
        if options.output != nil && urls.count > 1 {
            inputErrors.append(.input(.invalidOption("-o/--output names one file: give one URL with it, or use -d DIR")))
        }
        if let output = options.output, SafeFileName.sanitize(output) != output || output.contains("/") {
            inputErrors.append(.input(.invalidOption("-o/--output takes a plain file name (no '/', no leading dot, no control characters); use -d for the directory")))
        }
        if options.retries < 0 || options.maxConcurrent < 1 {
            inputErrors.append(.input(.invalidOption("--retries must be 0 or more and --max-concurrent 1 or more")))
        }
        if !options.query.isEmpty {
            do throws(FerryError) {
                let parameters = ParameterValue.dictionary(try ParameterArguments.parse(options.query, option: "--query"))
                let serializer = HTTPRequestSerializer()
                parsed = try parsed.map { url throws(FerryError) in try serializer.request(bySerializing: Request(url: url), parameters: parameters).url }
            } catch {
                inputErrors.append(error)
            }
        }
        guard inputErrors.isEmpty else {
            for error in inputErrors { Console.error(error.description) }
            throw ExitStatus.usage
        }

        let directory: URL
        do throws(FerryError) {
            directory = try DownloadDirectory.prepare(options.dir, environment: ProcessInfo.processInfo.environment)
        } catch {
            Console.error(error.description)
            throw ExitStatus(code: error.exitStatus)
        }

        // Two downloads of this run never share a destination.
        var taken = Set<String>()
        var jobs: [TransferJob] = []
        for url in parsed {
            let wanted = options.output ?? SafeFileName.fromURL(url)
            var name = wanted
            var counter = 0
            while taken.contains(name) {
                counter += 1
                name = SafeFileName.numbered(wanted, counter)
            }
            taken.insert(name)
            let destination = DownloadDestination(directory: directory, fileName: name, overwrite: options.overwrite)
            let request = Request(url: url, headers: headers)
            jobs.append(TransferJob(label: URLMasking.mask(url)) { session in
                session.downloadTask(with: request, to: destination)
            })
        }

        var configuration = SessionConfiguration.default
        configuration.maximumReceiveSpeed = rate
        let session = SessionManager(configuration: configuration)
        let style: Reporter.Style = options.json ? .json : (Console.stderrIsTerminal ? .terminal : .plain)
        let reporter = Reporter(style: style, jobCount: jobs.count, verb: "downloading")
        let following = reporter.follow(session)
        let trap = SignalTrap.install { signal in
            session.invalidate()
            reporter.clearLine()
            Console.error("interrupted; unfinished downloads were removed")
            Foundation.exit(signal == SIGINT ? 130 : 128 + signal)
        }
        let runner = TransferRunner(session: session, concurrency: options.maxConcurrent, retryPolicy: RetryPolicy(retryLimit: options.retries), reporter: reporter)
        let outcomes = await runner.run(jobs)
        trap.cancel()
        session.invalidate()
        await following.value
        reporter.clearLine()
        throw ExitStatus.summarizing(outcomes)
    }
}

extension ExitStatus {
    /// The status for a finished run: 0 when all succeeded, else the most specific failure (4, 3, then 1).
    static func summarizing(_ outcomes: [Result<TransferResult, FerryError>]) -> ExitStatus {
        let codes = outcomes.compactMap { outcome -> Int32? in
            if case .failure(let error) = outcome { return error.exitStatus }
            return nil
        }
        if codes.isEmpty { return .success }
        if codes.contains(4) { return .localFile }
        if codes.contains(3) { return ExitStatus(code: 3) }
        return .transferFailed
    }
}
