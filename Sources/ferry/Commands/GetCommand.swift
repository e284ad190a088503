import ArgumentParser
import FerryKit
import FerryQueue
import FerryRPC
import Foundation
import Synchronization

/// `GetCommand` is `ferry get URL...`: download now, headless, and exit when done.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Download URLs now, headless; progress on stderr.",
        discussion: "The file name comes from the URL path unless -o is given. An existing file is never replaced without --overwrite: the new one is saved as NAME.1.EXT, NAME.2.EXT, ... Bytes go to NAME.part first. An interrupted download (Ctrl-C, a lost connection, a crash) resumes when the same command is run again. -o - writes the one URL's body to stdout (ferry get URL -o - | tar x). -i FILE downloads a list in aria2's input-file format, as ferry add -i reads it."
    )

    /// The environment variable that sets the checkpoint interval in seconds (`0` turns periodic checkpoints off; for benchmarks).
    static let checkpointIntervalVariable = "FERRY_CHECKPOINT_INTERVAL"

    @Argument(help: "The http or https URLs to download (a local FILE.meta4 or FILE.metalink: its files).")
    var urls: [String] = []

    @Option(name: [.short, .customLong("input-file")], help: ArgumentHelp("Download the list in FILE too: aria2's input-file format, as ferry add -i reads it ('-' for stdin, gzip accepted); entries' own out=, dir=, checksum=, ... apply.", valueName: "FILE"))
    var inputFile: String?

    @OptionGroup var options: DownloadOptions

    @OptionGroup(title: "TLS rules per host") var trustRules: TrustRuleOptions

    @Option(name: .customLong("state-dir"), help: "Keep the journal here. Default: $FERRY_STATE_DIR, else $XDG_STATE_HOME/ferry, else ~/.local/state/ferry.")
    var stateDir: String?

    func run() async throws {
        Console.quiet = options.quiet
        // Check every input before anything is sent.
        var parsed: [URL] = []
        var inputErrors: [FerryError] = []
        let metalinks = options.metalinkFiles + urls.filter(Self.isMetalinkPath)
        if let follow = options.followMetalink, !["true", "false", "mem"].contains(follow.lowercased()) {
            inputErrors.append(.input(.invalidOption("--follow-metalink is true, false or mem")))
        }
        if let wanted = options.metalinkPreferredProtocol, !["http", "https", "none"].contains(wanted.lowercased()) {
            inputErrors.append(.input(.invalidOption("--metalink-preferred-protocol is http, https or none")))
        }
        for text in urls where !Self.isMetalinkPath(text) {
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
            _ = try options.parsedSegmentation()
        } catch {
            inputErrors.append(error)
        }
        if inputFile == nil && urls.isEmpty && metalinks.isEmpty {
            inputErrors.append(.input(.invalidOption("nothing to download: give URLs, -i FILE or a Metalink")))
        }
        if inputFile != nil && (options.output != nil || options.checksum != nil) {
            inputErrors.append(.input(.invalidOption("-o and --checksum name one file: with -i, give out= and checksum= in the list")))
        }
        if !metalinks.isEmpty && (options.output != nil || options.checksum != nil) {
            inputErrors.append(.input(.invalidOption("-o and --checksum name one file: a Metalink names its files and their hashes")))
        }
        if options.output != nil && urls.count > 1 {
            inputErrors.append(.input(.invalidOption("-o/--output names one file: give one URL with it, or use -d DIR")))
        }
        var outputPath: OutputPath?
        do throws(FerryError) {
            outputPath = try options.output.map { text throws(FerryError) in try OutputPath.parse(text) }
        } catch {
            inputErrors.append(error)
        }
        let environment = ProcessInfo.processInfo.environment
        var trustManager: ServerTrustManager?
        do throws(FerryError) {
            trustManager = try trustRules.manager(environment: environment)
        } catch {
            inputErrors.append(error)
        }
        var connection = ConnectionArguments()
        do throws(FerryError) {
            connection = try ConnectionArguments(trust: options.trust, login: options.login, compressed: options.compressed,
                                                 environment: environment)
            connection.settings.ignoresMetalinkHTTP = options.noMetalinkHTTP
            if let pairs = connection.cookieHeader {
                headers["Cookie"] = headers["Cookie"].map { $0 + "; " + pairs } ?? pairs
            }
        } catch {
            inputErrors.append(error)
        }
        do throws(FerryError) {
            // Kept with the tasks, as the trust and login settings are: a rerun or the queue applies them too.
            (connection.settings.connectTimeout, connection.settings.maximumTime) = try options.request.parsed()
        } catch {
            inputErrors.append(error)
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

        connection.warnIfInsecure()
        TrustRuleOptions.warnIfInsecure(trustManager)
        if outputPath == .standardOutput, let url = parsed.first {
            try await standardOutputDownload(url, headers: headers, rate: rate, lowSpeed: lowSpeed, connection: connection,
                                             trustManager: trustManager)
        }
        let directory = try DownloadDirectory.prepareForCommand(outputPath?.directoryArgument(dir: options.dir) ?? options.dir)
        var requestOptions = options
        requestOptions.output = outputPath?.name

        var request = GetRequest(urls: parsed, directory: directory, options: requestOptions, headers: headers, rate: rate, checksum: checksum,
                                 connection: connection.settings)
        if let inputFile {
            (request.listed, request.listedSkipped) = try listedTasks(from: inputFile, directory: directory, headers: headers, rate: rate,
                                                              checksum: checksum, connection: connection.settings)
        }
        if !metalinks.isEmpty {
            request.listed += try metalinkTasks(from: metalinks, directory: directory, headers: headers, rate: rate, connection: connection.settings)
        }
        if options.followMetalink?.lowercased() != "false" {
            // A URL that serves a Metalink is followed: its files are the downloads.
            for url in request.urls where Self.isRemoteMetalink(url) {
                guard let followed = try await followedMetalinkTasks(url, directory: directory, headers: headers, rate: rate,
                                                                      connection: connection, trustManager: trustManager) else { continue }
                if options.output != nil || options.checksum != nil {
                    Console.error("-o and --checksum name one file: the Metalink \(URLMasking.mask(url)) names its files and their hashes")
                    throw ExitStatus.usage
                }
                request.urls.removeAll { $0 == url }
                request.listed += followed
            }
        }
        let journal: DownloadJournal
        do throws(QueueError) {
            journal = try DownloadJournal.open(stateDirectory: stateDir, environment: environment)
        } catch {
            // The engine running the queue (a daemon, or another ferry get) takes the
            // downloads; an engine that cannot is a usage error; a state directory or journal
            // that cannot be used (read-only, full, ...) is a local file error.
            guard case .lock(.heldByAnotherProcess) = error else { throw QueueAccess.fail(error) }
            if trustManager != nil {
                Console.error("note: the engine running this queue checks TLS with its own --trust rules, not this command's")
            }
            switch try await getThroughDaemon(request) {
            case .handled:
                return
            case .refused:
                throw QueueAccess.fail(error)
            case .ending:
                // The other get's engine was ending: its downloads are queued, and this run
                // takes them as an earlier run's once that engine has let the queue go.
                journal = try await Self.openOnceFree(stateDirectory: stateDir, environment: environment)
            }
        }
        // The same scheduler as the queue's, running only this command's tasks.
        // Every connection counts against both limits: -x N asks for N of them.
        // A file from several sources at once opens two connections per source unless -x says.
        let sourceConnections = request.listed.filter(ResumableDownloadDelegateFactory.usesSources).map {
            ResumableDownloadDelegateFactory.sourceConnections(urls: $0.spec.urls.count)
        }.max() ?? 1
        let connections = options.connections ?? sourceConnections
        var configuration = SchedulerConfiguration(defaultDirectory: directory.path,
                                                   maximumConcurrent: max(options.limits.maxConcurrent, connections),
                                                   maximumPerHost: max(options.limits.maxPerHost, connections),
                                                   retryPolicy: options.retryPolicy)
        configuration.onlyTasks = []
        configuration.lowSpeedLimit = lowSpeed.limit
        configuration.lowSpeedTime = lowSpeed.time
        configuration.securityPolicy = connection.policy
        configuration.trustManager = trustManager
        configuration.login = connection.login
        configuration.proxy = connection.proxy
        configuration.usesNetrc = connection.netrc.uses
        configuration.netrcFile = connection.netrc.file
        configuration.cookieFiles = connection.cookieFiles
        configuration.cookieJar = connection.cookieJar
        configuration.acceptsCompression = options.compressed
        let style = Reporter.Style(json: options.json)
        let reporter = Reporter(style: style, jobCount: 0, verb: "downloading")
        if options.verbose {
            configuration.headTrace = { trace in reporter.showHead(trace) }
        }
        var checkpointInterval: Double? = DownloadPolicy.defaultCheckpointInterval
        if let text = environment[Self.checkpointIntervalVariable], let interval = Double(text) { checkpointInterval = interval }
        var factory = ResumableDownloadDelegateFactory(journal: journal.journal, checkpointInterval: checkpointInterval)
        // Every download keeps a .part from its first byte: a drop resumes, whatever the size.
        factory.usesUnnamedFiles = false
        options.limits.bandwidth.apply(to: &configuration)
        let scheduler = await journal.host.start(configuration, delegateFactory: factory, hooks: options.hooks, environment: environment)
        let interruption = Interruption()
        let interrupt: @Sendable (Int32) -> Void = { signal in
            // The follower pauses this run's downloads on any signal (every running transfer
            // checkpoints and keeps its .part, and no other engine takes them before this
            // command is run again). The downloads another ferry get handed to this engine
            // (adopted) go on after a first Ctrl-C, until they end or a second signal (or
            // ferry stop, SIGTERM) pauses them too.
            let first = interruption.record(signal)
            Task {
                let adopted = await scheduler.adopted.sorted { $0.rawValue < $1.rawValue }
                if first && signal == SIGINT {
                    if !adopted.isEmpty {
                        reporter.clearLine()
                        Console.error("paused; the downloads another ferry get gave this one go on until they end (Ctrl-C again pauses them too)")
                    }
                } else {
                    await scheduler.pause(adopted)
                }
            }
        }
        // This engine answers on control.sock too (ferry list shows its live speed; pause and
        // limit act at once); it runs only its own downloads (`ferry.engine`), and `ferry stop`
        // ends it as SIGTERM does. This run queues and follows its downloads through the same
        // methods, in this process, as a run handing them to a daemon does there.
        let engine = RPCEngine(journal: journal.journal, runner: scheduler, defaultDirectory: directory.path,
                               maximumConcurrent: configuration.maximumConcurrent, runsWholeQueue: false, command: "get",
                               onShutdown: { interrupt(SIGTERM) })
        let door = LocalDoor(dispatcher: RPCDispatcher(engine: engine, secret: nil))
        let mark = try await DownloadFollower.attach(door)
        let plan: GetPlan
        do {
            plan = try await GetPlan.make(request, store: QueuedDownloads(journal: journal.journal, door: door, retries: options.retries))
        } catch {
            journal.close()
            throw GetPlan.fail(error)
        }
        if !plan.jobs.isEmpty, let note = options.limits.bandwidth.keptLimitNote(journal: journal.journal) { Console.error(note) }
        guard plan.announce(style: style) else {
            journal.close()
            if let status = request.finalStatus(0) { throw status }
            return
        }
        let ids = Array(plan.jobs.keys)
        _ = await scheduler.runOnly(ids)
        reporter.expect(plan.jobs.count)
        Self.noteAdoptedLeft(scheduler, journal: journal.journal, own: Set(ids), reporter: reporter, interruption: interruption)
        let trap = SignalTrap.install(interrupt)
        journal.host.serve(engine)
        let follower = DownloadFollower(door: door, from: mark, journal: journal.journal, host: nil, reporter: reporter, jobs: plan.jobs)
        let stopped = Mutex(false)
        let running = Task {
            await scheduler.run(untilIdle: true)
            stopped.withLock { $0 = true }
        }
        let outcome = await follower.run(interruption: interruption, engineEnded: { stopped.withLock { $0 } })
        await running.value
        await journal.host.closeDoor()
        trap.cancel()
        scheduler.finishEvents()
        reporter.clearLine()
        let journalError = await scheduler.lastJournalError
        let interrupted = interruption.exitStatus != nil ? await InterruptedGet.message(journal: journal.journal, ids: ids) : nil
        journal.close()
        if let status = interruption.exitStatus, let interrupted {
            Console.error(interrupted)
            throw ExitStatus(code: status)
        }
        if let journalError {
            Console.error(journalError.description)
            throw ExitStatus.localFile
        }
        if case .lost(let why) = outcome { Console.error("the downloads could not be followed to their end (\(why)); ferry list shows them") }
        guard case .ended(let summary) = outcome else { throw ExitStatus.transferFailed }
        throw request.finalStatus(summary.exitStatus) ?? ExitStatus.success
    }
}

extension GetCommand {
    /// `noteAdoptedLeft(_:journal:own:reporter:interruption:)` says, once this run's own
    /// downloads have ended, that it goes on with the ones another `ferry get` gave it (a run
    /// that has said "saved" and does not exit looks stuck); nothing when none is left or the
    /// run was interrupted (that says so itself).
    static func noteAdoptedLeft(_ scheduler: Scheduler, journal: Journal, own: Set<TaskID>, reporter: Reporter,
                                interruption: Interruption) {
        let pending = Mutex(own)
        scheduler.observe { event in
            // A download queued again (a retry) has not ended.
            guard case .ended(let id, let state, _, _) = event, state != .queued else { return }
            let allEnded = pending.withLock { left in left.remove(id) != nil && left.isEmpty }
            guard allEnded else { return }
            Task {
                let adopted = await scheduler.adopted
                guard interruption.signal == nil, !adopted.isEmpty,
                      let states = try? journal.states(of: adopted),
                      case let left = states.values.filter({ $0 == .queued || $0 == .running }).count, left > 0 else { return }
                reporter.clearLine()
                Console.error("done here; \(left) download\(left == 1 ? "" : "s") another ferry get gave this one still run: it ends with them (ferry list shows them)")
            }
        }
    }

    /// `freeQueueWait` is how long a run waits for an ending engine to let the queue go.
    static let freeQueueWait: Duration = .seconds(30)

    /// `openOnceFree(stateDirectory:environment:)` opens the journal under the engine lock
    /// once the engine holding it has let it go (at most `freeQueueWait`).
    static func openOnceFree(stateDirectory: String?, environment: [String: String]) async throws -> DownloadJournal {
        let deadline = ContinuousClock.now + freeQueueWait
        while true {
            do throws(QueueError) {
                return try DownloadJournal.open(stateDirectory: stateDirectory, environment: environment)
            } catch {
                guard case .lock(.heldByAnotherProcess) = error, ContinuousClock.now < deadline else { throw QueueAccess.fail(error) }
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }
}

/// `GetRequest` is what one `ferry get` asks for, its input checked.
struct GetRequest {
    var urls: [URL]
    var directory: URL
    var options: DownloadOptions
    var headers: HTTPHeaders
    var rate: Int64?
    var checksum: ExpectedChecksum?
    /// `connection` are the trust, login, proxy and cookie settings kept with each download.
    var connection: ConnectionSettings
    /// `listed` are the downloads of `-i FILE`, their options merged; none by default.
    var listed: [NewTask] = []
    /// `listedSkipped` counts the lines of `-i FILE` that were skipped (reported already).
    var listedSkipped = 0

    /// `finalStatus(_:)` is the status a run whose downloads ended with `code` exits with,
    /// `nil` for 0: a skipped line of `-i FILE` makes a run whose downloads all succeeded (or
    /// were saved already) a usage error, through a daemon as on its own.
    func finalStatus(_ code: Int32) -> ExitStatus? {
        let status = code == 0 && listedSkipped > 0 ? ExitStatus.usage.code : code
        return status == 0 ? nil : ExitStatus(code: status)
    }
}

/// `GetPlan` is what one `ferry get` runs: each URL's task in the journal (an unfinished one
/// of an earlier run of the same command, or a new one), and the files it already saved.
struct GetPlan {
    /// The tasks to run, by id, with their place in the command and their masked URL.
    var jobs: [TaskID: Reporter.Job] = [:]
    /// Files an earlier run of the same command saved; not fetched again.
    var alreadySaved: [String] = []

    static func make(_ request: GetRequest, store: QueuedDownloads) async throws -> GetPlan {
        var plan = GetPlan()
        let options = request.options
        let unfinished = try store.journal.unfinishedDownloads()
        let finished = options.overwrite ? [] : try store.journal.finishedDownloads()
        // Each record stands for one URL of the command (a URL given twice is two downloads).
        var used = Set<TaskID>()
        let fields = try request.headers.map { field throws(QueueError) in try HeaderField(name: field.name, value: field.value) }
        let expected = try request.checksum.map { value throws(QueueError) in try Checksum(parsing: value.description) }
        let directory = request.directory
        for url in request.urls {
            let name = options.output
            if let record = finished.first(where: { !used.contains($0.id) && DownloadJournal.matches($0, url: url, directory: directory, name: name) }),
               let path = SavedFileCheck.path(of: record, checksum: expected) {
                used.insert(record.id)
                plan.alreadySaved.append(path)
                continue
            }
            // A finished download whose file changed is fetched again; its old row goes.
            let changed = finished.first(where: { !used.contains($0.id) && DownloadJournal.matches($0, url: url, directory: directory, name: name) })
            let entry: DownloadJournal.Entry
            // The name its progress line shows: the one it writes when known, else the one asked for.
            var shownName = name ?? SafeFileName.fromURL(url)
            if let record = unfinished.first(where: { !used.contains($0.id) && DownloadJournal.matches($0, url: url, directory: directory, name: name) }) {
                if let fileName = record.fileName { shownName = fileName }
                // This run's settings first, then queued again: a daemon may start the task the
                // moment it is queued, and it must start with these (no -k of an earlier run).
                try await store.adopt(TaskOptions(connections: options.connections,
                                                  minSplitSize: (try? options.parsedSegmentation())?.minSplitSize), of: record)
                try await store.adopt(request.connection, of: record)
                try await store.adopt(expected, of: record)
                entry = try await store.requeue(record, speedCap: request.rate)
            } else {
                let spec = TaskSpec(
                    urls: [try TransferURL(validating: url.absoluteString)], headers: fields,
                    destinationDirectory: directory.path, requestedName: name, overwrite: options.overwrite,
                    checksum: expected, useContentDisposition: options.contentDisposition,
                    options: TaskOptions(maxDownloadLimit: request.rate, connections: options.connections,
                                         minSplitSize: (try? options.parsedSegmentation())?.minSplitSize),
                    connection: request.connection
                )
                entry = try await store.insert(NewTask(spec: spec))
            }
            if let changed {
                used.insert(changed.id)
                try await store.forget(changed)
            }
            used.insert(entry.id)
            // Said to resume once its progress shows it did (Reporter).
            plan.jobs[entry.id] = Reporter.Job(index: plan.jobs.count, label: URLMasking.mask(url), name: shownName, resumesAt: entry.resumesAt)
        }
        try await plan.addListed(request.listed, request: request, store: store, finished: finished, unfinished: unfinished, used: &used)
        return plan
    }

    /// `fail(_:)` reports an error met while planning and is the status it ends the run with
    /// (a journal error is a local file error; the daemon's errors were reported already).
    static func fail(_ error: any Error) -> ExitStatus {
        if let status = error as? ExitStatus { return status }
        Console.error((error as? QueueError)?.description ?? "\(error)")
        return ExitStatus.localFile
    }

    /// `announce(style:)` says which files were saved already (the reporter says which
    /// downloads resume, once they do); returns whether anything is left to download.
    func announce(style: Reporter.Style) -> Bool {
        for path in alreadySaved {
            Console.status("already saved \(path)\n")
        }
        return !jobs.isEmpty
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
