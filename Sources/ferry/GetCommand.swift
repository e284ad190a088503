import ArgumentParser
import FerryKit
import FerryQueue
import Foundation

/// `GetCommand` is `ferry get URL...`: download now, headless, and exit when done.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Download URLs now, headless; progress on stderr.",
        discussion: "The file name comes from the URL path unless -o is given. An existing file is never replaced without --overwrite: the new one is saved as NAME.1.EXT, NAME.2.EXT, ... Bytes go to NAME.part first. An interrupted download (Ctrl-C, a lost connection, a crash) resumes when the same command is run again."
    )

    /// The environment variable that sets the checkpoint interval in seconds (`0` turns periodic checkpoints off; for benchmarks).
    static let checkpointIntervalVariable = "FERRY_CHECKPOINT_INTERVAL"

    @Argument(help: "The http or https URLs to download.")
    var urls: [String]

    @OptionGroup var options: DownloadOptions

    @Option(name: .customLong("state-dir"), help: "Keep the journal here. Default: $FERRY_STATE_DIR, else $XDG_STATE_HOME/ferry, else ~/.local/state/ferry.")
    var stateDir: String?

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
        var lowSpeed: (limit: Int?, time: Int?) = (nil, nil)
        do throws(FerryError) {
            headers = try options.parsedHeaders()
            rate = try options.parsedRate()
            lowSpeed = try options.parsedLowSpeed()
        } catch {
            inputErrors.append(error)
        }
        if options.output != nil && urls.count > 1 {
            inputErrors.append(.input(.invalidOption("-o/--output names one file: give one URL with it, or use -d DIR")))
        }
        if let output = options.output, SafeFileName.check(requestedName: output) != nil {
            inputErrors.append(.input(.invalidOption("-o/--output takes a plain file name (no '/', no leading dot, no control characters); use -d for the directory")))
        }
        var checksum: ExpectedChecksum?
        do throws(FerryError) {
            checksum = try options.parsedChecksum()
        } catch {
            inputErrors.append(error)
        }
        if checksum != nil && urls.count > 1 {
            inputErrors.append(.input(.invalidOption("--checksum is the digest of one file: give one URL with it")))
        }
        if options.retries < 0 {
            inputErrors.append(.input(.invalidOption("--retries must be 0 or more")))
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

        let directory = try DownloadDirectory.prepareForCommand(options.dir)

        let environment = ProcessInfo.processInfo.environment
        let journal: DownloadJournal
        let unfinished: [TaskRecord]
        do throws(QueueError) {
            journal = try DownloadJournal.open(stateDirectory: stateDir, environment: environment)
            unfinished = try journal.unfinishedDownloads()
        } catch {
            // Another engine running the queue is a usage error; a state directory or journal
            // that cannot be used (read-only, full, ...) is a local file error.
            throw QueueAccess.fail(error)
        }

        // Two downloads never share a destination: not in this run, nor with an unfinished
        // download of another URL from an earlier run. A failed one reserves no name.
        var taken = Set<String>()
        for record in unfinished where record.state != .failed && record.spec.destinationDirectory == directory.path && !parsed.contains(where: { DownloadJournal.matches(record, url: $0, directory: directory, name: record.spec.requestedName ?? "") }) {
            if let name = record.spec.requestedName { taken.insert(name) }
        }
        // Each URL's name; a download an earlier run of the same command finished is not
        // fetched again (unless --overwrite asks for a fresh copy).
        var planned: [(url: URL, name: String)] = []
        var alreadySaved: [String] = []
        for url in parsed {
            let wanted = options.output ?? SafeFileName.fromURL(url)
            var name = wanted
            var counter = 0
            while taken.contains(name) {
                counter += 1
                name = SafeFileName.numbered(wanted, counter)
            }
            taken.insert(name)
            if !options.overwrite, let saved = journal.savedFile(url: url, directory: directory, name: name) {
                alreadySaved.append(saved)
            } else {
                planned.append((url, name))
            }
        }
        for path in alreadySaved {
            Console.status("already saved \(path)\n")
        }
        var policy = DownloadPolicy(expectedChecksum: checksum, usesContentDisposition: options.contentDisposition)
        // The .part stays linked to the finished file until the journal says done (a kill in
        // between is recognised by recoverCommittedFile instead of fetching a copy).
        policy.keepsPartialNameAfterCommit = true
        if let text = environment[Self.checkpointIntervalVariable], let interval = Double(text) { policy.checkpointInterval = interval }
        var configuration = SessionConfiguration.default
        // Beyond the per-host limit the engine holds a transfer until another to that host ends.
        configuration.maximumActiveTransfersPerHost = options.limits.maxPerHost
        let session = SessionManager(configuration: configuration)
        let style: Reporter.Style = options.json ? .json : (Console.stderrIsTerminal ? .terminal : .plain)
        let reporter = Reporter(style: style, jobCount: planned.count, verb: "downloading")
        let retryPolicy = RetryPolicy(retryLimit: options.retries)

        // Settings that vary per transfer travel with its request.
        func request(_ url: URL) -> Request {
            var request = Request(url: url, headers: headers)
            request.maximumReceiveSpeed = rate
            request.lowSpeedLimit = lowSpeed.limit
            request.lowSpeedTime = lowSpeed.time
            return request
        }
        var downloads: [(entry: DownloadJournal.Entry, download: ResumableDownload)] = []
        for (index, (url, name)) in planned.enumerated() {
            let entry: DownloadJournal.Entry
            do throws(QueueError) {
                entry = try journal.entry(url: url, headers: headers, directory: directory, name: name, checksum: checksum, useContentDisposition: options.contentDisposition, among: unfinished)
            } catch {
                Console.error(error.description)
                journal.close()
                throw ExitStatus.localFile
            }
            if let resume = entry.resume, style != .json {
                Console.status("resuming \(URLMasking.mask(url)) at \(ByteFormatting.size(resume.durableOffset))\n")
            }
            let destination = DownloadDestination(directory: directory, fileName: name, overwrite: options.overwrite)
            // The .part carries the task's mark: another process's .part is never taken for it.
            var ownPolicy = policy
            ownPolicy.owner = journal.owner(of: entry.id)
            let observer = ReportingObserver(reporter: reporter, job: index, label: URLMasking.mask(url))
            let id = entry.id
            let download = ResumableDownload(
                session: session, request: request(url), destination: destination,
                policy: ownPolicy, retryPolicy: retryPolicy, resumeFrom: entry.resume, observer: observer,
                checkpoint: { data in journal.checkpoint(id, data) }
            )
            downloads.append((entry, download))
        }

        let following = reporter.follow(session)
        let interruption = Interruption()
        let running = downloads.map(\.download)
        let trap = SignalTrap.install { signal in
            // Every running transfer checkpoints and keeps its .part; no new attempt starts.
            guard interruption.record(signal) else { return }
            for download in running { download.cancel() }
        }
        let runner = TransferRunner(session: session, concurrency: options.limits.maxConcurrent, retryPolicy: retryPolicy, reporter: reporter)
        let jobs = downloads
        let outcomes = await runner.run(count: jobs.count) { index in
            // A file committed just before an earlier run was killed is done, not fetched again.
            let download = jobs[index].download
            let outcome: Result<TransferResult, FerryError>
            if let file = download.destination.recoverCommittedFile(owner: download.policy.owner) {
                outcome = .success(TransferResult(response: HTTPResponse(url: download.request.url, statusCode: 200), fileURL: file))
            } else {
                outcome = await download.run()
            }
            journal.finish(jobs[index].entry.id, outcome: outcome)
            if case .success(let result) = outcome, let finalPath = result.fileURL?.path {
                download.destination.removeLeftoverPartialFile(of: finalPath, owner: download.policy.owner)
            }
            return outcome
        }
        trap.cancel()
        session.invalidate()
        journal.close()
        await following.value
        reporter.clearLine()
        if let status = interruption.exitStatus {
            Console.error("interrupted; partial files were kept: run the same command again to resume")
            throw ExitStatus(code: status)
        }
        throw ExitStatus.summarizing(outcomes)
    }
}

extension ExitStatus {
    /// The status for a finished run: 0 when all succeeded, else the gravest failure's
    /// (ranked once, by `SchedulerSummary.note(_:)`).
    static func summarizing(_ outcomes: [Result<TransferResult, FerryError>]) -> ExitStatus {
        var summary = SchedulerSummary()
        for case .failure(let error) in outcomes {
            summary.note(error.kind)
        }
        return ExitStatus(code: summary.exitStatus)
    }
}
