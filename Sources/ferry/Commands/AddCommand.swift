import ArgumentParser
import FerryKit
import FerryQueue
import Foundation

/// `AddCommand` is `ferry add`: put downloads or uploads in the saved queue without running them.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add downloads (or an upload) to the saved queue; `ferry resume` runs it.",
        discussion: """
        Each URL is one download, unless --mirrors makes them mirrors of one file (tried in \
        order when one fails for good: 404, unknown host).
        -i FILE reads aria2's input-file format (gzip accepted, '-' for stdin): one line of \
        TAB-separated mirror URIs per file, then indented key=value options with aria2's names \
        (out, dir, header, checksum, pause, max-download-limit, split, max-tries, user-agent, \
        referer, check-certificate, ca-certificate, certificate, private-key, http-user, \
        http-passwd, all-proxy, no-proxy, load-cookies, save-cookies, ...; see the guide, \
        USAGE.md, installed in share/doc/ferry). ferry get -i FILE downloads such a list now. \
        Options given here apply to every entry that does not set its own.
        TLS options, logins, cookies and proxies are kept with each task (the password in the \
        journal only, never shown) and used by whichever engine runs it. A bad line is reported with its number and only its entry is \
        skipped; the exit status is then 2 although the other entries were added.
        --put URL queues one upload: -F fields (curl's syntax; files are read again when the \
        upload starts) or -T FILE as the raw body.
        A running daemon or ferry resume starts new tasks at once; next to a ferry get (which \
        runs only its own downloads) they wait for the next engine of the queue.
        """
    )

    @Argument(help: "The http or https URLs to add.")
    var urls: [String] = []

    @Option(name: [.short, .customLong("input-file")], help: "Read a batch file in aria2's format ('-' for stdin, gzip accepted).")
    var inputFile: String?

    @Option(name: [.short, .customLong("output")], help: "Save as NAME (one download only).")
    var output: String?

    @Option(name: [.short, .customLong("dir")], help: "Save into DIR (created now if missing). Default: $XDG_DOWNLOAD_DIR, else ~/Downloads if it exists, else the current directory.")
    var dir: String?

    @Option(name: [.customShort("H"), .customLong("header")], help: "Send the header 'Name: value', or the lines of FILE with @FILE (repeatable).")
    var headers: [String] = []

    @Option(help: ArgumentHelp("Check the finished file against ALGO=HEX (sha-256, sha-512, sha-1, md5).", valueName: "ALGO=HEX"))
    var checksum: String?

    @Option(help: "Queue priority; higher runs first.")
    var priority: Int = 0

    @Flag(help: "Add the tasks paused.")
    var paused = false

    @Option(help: "Retries after a transient failure. Default: 5.")
    var retries: Int?

    @Option(name: .customLong("limit-rate"), help: "Cap the download speed, e.g. 500K or 2M (bytes per second).")
    var limitRate: String?

    @Option(name: [.customShort("x"), .customLong("connections")], help: ArgumentHelp("Fetch each file over up to N connections (1-16), every range validated; every connection counts against the queue's limits. Default: 1 (see ferry get --help).", valueName: "N"))
    var connections: Int?

    @Option(name: .customLong("min-split-size"), help: ArgumentHelp("Split no range with less than twice SIZE left, e.g. 1M. Default: 1M.", valueName: "SIZE"))
    var minSplitSize: String?

    @Flag(name: [.short, .long], help: "Print errors only: no line per added task, no \"added N tasks\" summary.")
    var quiet = false

    @Flag(help: "The URLs are mirrors of one file.")
    var mirrors = false

    @Flag(help: "Replace an existing file instead of saving as NAME.1.EXT.")
    var overwrite = false

    @Flag(help: "Queue an upload to the URL (with -F or -T) instead of a download.")
    var put = false

    @Option(name: [.customShort("F"), .customLong("form-field")], help: ArgumentHelp("With --put: a multipart field 'name=value' or 'name=@PATH[;type=MIME][;filename=NAME]' (repeatable).", valueName: "field"))
    var formFields: [String] = []

    @Option(name: [.customShort("T"), .customLong("upload-file")], help: "With --put: send PATH as the raw body.")
    var uploadFile: String?

    @Option(name: [.customShort("X"), .customLong("method")], help: "With --put: the method (default POST for -F, PUT for -T).")
    var method: String?

    @Option(name: .customLong("resumable"), help: ArgumentHelp("With --put: make the upload resumable (auto, alone: --resumable; ietf; tus): pauses, retries and restarts go on from the server's offset.", valueName: "protocol"))
    var resumable: ResumableUploadOptions.Mode?

    @Flag(name: .customLong("compressed"), help: "Ask for a compressed body (gzip, deflate, br, zstd) and save it decoded; a resume asks for none.")
    var compressed = false

    @Flag(name: .customLong("no-metalink-http"), help: "Leave the mirrors and digest a response names (Metalink/HTTP) unused.")
    var noMetalinkHTTP = false

    @OptionGroup(title: "TLS (kept with each task)") var trust: TrustOptions

    @OptionGroup(title: "Logins, cookies and proxies (kept with each task; the password too, in the journal only)") var login: LoginOptions

    @OptionGroup var state: StateOptions

    func run() async throws {
        Console.quiet = quiet
        if inputFile != nil && (!urls.isEmpty || put) {
            Console.error("give URLs or -i FILE, not both")
            throw ExitStatus.usage
        }
        if inputFile == nil && urls.isEmpty {
            Console.error("nothing to add: give URLs or -i FILE")
            throw ExitStatus.usage
        }
        if let retries, retries < 0 {
            Console.error("--retries must be 0 or more")
            throw ExitStatus.usage
        }
        var connection: ConnectionArguments
        do {
            connection = try ConnectionArguments(trust: trust, login: login, compressed: compressed,
                                                 environment: ProcessInfo.processInfo.environment)
            connection.settings.ignoresMetalinkHTTP = noMetalinkHTTP
        } catch {
            Console.error(error.description)
            throw ExitStatus.usage
        }
        connection.warnIfInsecure(kept: true)
        if let inputFile {
            try await addBatch(from: inputFile, connection: connection)
            return
        }
        let tasks = try put ? [try uploadTask(connection: connection)] : downloadTasks(connection: connection)
        let sink = try TaskSink.open(state)
        defer { sink.close() }
        let ids = try await sink.insert(tasks)
        for (id, task) in zip(ids, tasks) where !quiet {
            Console.output("#\(id) \(task.startsPaused ? "paused" : "queued") \(task.spec.urls.map(\.masked.displayable).joined(separator: " "))")
        }
    }

    // MARK: - Downloads

    /// `downloadTasks()` checks every argument and makes the tasks; any error is a usage error
    /// and nothing is added.
    private func downloadTasks(connection: ConnectionArguments) throws -> [NewTask] {
        var errors: [String] = []
        var parsed: [TransferURL] = []
        for text in urls {
            do { parsed.append(try TransferURL(validating: text)) } catch { errors.append(error.description) }
        }
        let defaults = try batchDefaults(errors: &errors, connection: connection)
        let taskCount = mirrors ? 1 : parsed.count
        if output != nil && taskCount > 1 {
            errors.append("-o/--output names one file: give one URL (or --mirrors), or use -d DIR")
        }
        if let output, SafeFileName.check(requestedName: output) != nil {
            errors.append("-o/--output takes a plain file name (no '/', no leading dot, no control characters); use -d for the directory")
        }
        guard errors.isEmpty, let defaults else {
            for error in errors { Console.error(error) }
            throw ExitStatus.usage
        }
        let groups = mirrors ? [parsed] : parsed.map { [$0] }
        return groups.map { urls in
            NewTask(spec: TaskSpec(
                urls: urls, headers: defaults.headers, destinationDirectory: defaults.directory,
                requestedName: output, overwrite: overwrite, checksum: defaults.checksum,
                options: TaskOptions(maxDownloadLimit: defaults.maxDownloadLimit, retries: retries,
                                     connections: defaults.connections, minSplitSize: defaults.minSplitSize),
                connection: defaults.connection),
                priority: priority, startsPaused: paused)
        }
    }

    /// `batchDefaults(errors:)` turns the download options into `BatchDefaults`, with the
    /// download directory resolved, created and checked now (catalogue 13).
    private func batchDefaults(errors: inout [String], connection: ConnectionArguments) throws -> BatchDefaults? {
        var fields: [HeaderField] = []
        var digest: Checksum?
        var rate: Int64?
        do {
            fields = try HeaderArguments.fields(headers + Self.cookieHeader(connection))
            digest = try checksum.map { text throws(QueueError) in try Checksum(parsing: text) }
            rate = try limitRate.flatMap { text throws(QueueError) in try TaskOptions.parseRate(text) }
        } catch {
            errors.append(error.description)
            return nil
        }
        if let connections, !TaskOptions.connectionRange.contains(connections) {
            errors.append("invalid -x/--connections \(connections): expected 1 to 16")
            return nil
        }
        var splitSize: Int64?
        if let minSplitSize {
            guard let size = try? TaskOptions.parseRate(minSplitSize), size >= 1024 else {
                errors.append("invalid --min-split-size \"\(minSplitSize.displayable)\": expected a size of at least 1K, e.g. 1M")
                return nil
            }
            splitSize = size
        }
        let directory = try DownloadDirectory.prepareForCommand(dir)
        var defaults = BatchDefaults(directory: directory.path, headers: fields, checksum: digest, maxDownloadLimit: rate,
                                     startsPaused: paused, retries: retries, overwrite: overwrite, priority: priority)
        defaults.connections = connections
        defaults.minSplitSize = splitSize
        defaults.connection = connection.settings
        return defaults
    }

    // MARK: - Batch files

    /// `addBatch(from:)` streams the batch file into the journal in chunks; bad lines are
    /// reported and skipped (status 2 at the end).
    private func addBatch(from path: String, connection: ConnectionArguments) async throws {
        var errors: [String] = []
        guard let defaults = try batchDefaults(errors: &errors, connection: connection) else {
            for error in errors { Console.error(error) }
            throw ExitStatus.usage
        }
        let sink = try TaskSink.open(state)
        defer { sink.close() }
        var entries = try ListedEntries(path: path, defaults: defaults, commandIsInsecure: connection.settings.insecure)
        let shownPath = entries.shownPath
        var chunk: [NewTask] = []
        var added = 0
        var firstID: TaskID?
        var lastID: TaskID?
        func flush() async throws {
            guard !chunk.isEmpty else { return }
            let ids = try await sink.insert(chunk)
            added += ids.count
            firstID = firstID ?? ids.first
            lastID = ids.last ?? lastID
            chunk.removeAll(keepingCapacity: true)
        }
        do {
            while let (_, task) = try entries.next() {
                chunk.append(task)
                if chunk.count >= 5_000 { try await flush() }
            }
        } catch let error as QueueError {
            try await flush()
            Console.error("\(shownPath): \(error.description)")
            throw ExitStatus.usage
        }
        try await flush()
        entries.warnInsecure()
        let skipped = entries.skipped
        var ids = ""
        if let firstID, let lastID { ids = firstID == lastID ? " (#\(firstID))" : " (#\(firstID) to #\(lastID))" }
        guard !quiet || skipped > 0 else { return }
        Console.error("added \(added) task\(added == 1 ? "" : "s")\(ids) from \(shownPath)\(skipped > 0 ? "; \(skipped) entr\(skipped == 1 ? "y" : "ies") skipped" : "")")
        if skipped > 0 { throw ExitStatus.usage }
    }

    // MARK: - Uploads

    /// `uploadTask()` makes the upload task of `--put`: files are checked now and stored by
    /// absolute path, and read again when the upload starts.
    private func uploadTask(connection: ConnectionArguments) throws -> NewTask {
        var errors: [String] = []
        if urls.count != 1 { errors.append("--put takes exactly one URL") }
        if formFields.isEmpty == (uploadFile == nil) { errors.append("--put needs -F fields or -T FILE (one of them)") }
        if output != nil || mirrors || checksum != nil || limitRate != nil {
            errors.append("-o, --mirrors, --checksum and --limit-rate are for downloads")
        }
        if let method, method.isEmpty || !method.allSatisfy({ $0.isASCII && $0.isLetter }) {
            errors.append("invalid method \"\(method)\"")
        }
        var url: TransferURL?
        var fields: [HeaderField] = []
        do {
            url = try urls.first.map { text throws(QueueError) in try TransferURL(validating: text) }
            fields = try HeaderArguments.fields(headers + Self.cookieHeader(connection))
        } catch {
            errors.append(error.description)
        }
        var upload = UploadSpec(method: method ?? (uploadFile == nil ? "POST" : "PUT"))
        upload.resumable = resumable?.rawValue
        if resumable != nil && !put { errors.append("--resumable goes with --put") }
        let absolute = TaskOptionTable.absolute
        func checkReadable(_ path: String) {
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) || isDirectory.boolValue
                || !FileManager.default.isReadableFile(atPath: path) {
                errors.append("no readable file at \(path)")
            }
        }
        if let uploadFile {
            upload.bodyFile = absolute(uploadFile)
            var info = stat()
            if uploadFile == "-" || (stat(absolute(uploadFile), &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG) {
                // The body is read again when the upload starts, maybe much later, by the engine.
                errors.append("-T for a queued upload takes a regular file (ferry put reads standard input and FIFOs)")
            } else {
                checkReadable(absolute(uploadFile))
            }
        }
        for argument in formFields {
            do throws(FerryError) {
                let spec = try FormFieldSpec.parse(argument)
                switch spec.content {
                case .text(let value):
                    upload.fields.append(UploadSpec.Field(name: spec.name, value: value))
                case .file(let path):
                    checkReadable(absolute(path))
                    upload.files.append(UploadSpec.File(fieldName: spec.name, path: absolute(path),
                                                        filename: spec.fileName, mimeType: spec.mimeType))
                case .fileContents:
                    errors.append("-F 'name=<PATH' is not supported for queued uploads; use 'name=@PATH' or ferry put")
                }
            } catch {
                errors.append(error.description)
            }
        }
        guard errors.isEmpty, let url else {
            for error in errors { Console.error(error) }
            throw ExitStatus.usage
        }
        return NewTask(spec: TaskSpec(urls: [url], headers: fields, options: TaskOptions(retries: retries), upload: upload,
                                      connection: connection.settings),
                       priority: priority, startsPaused: paused)
    }

    /// `cookieHeader(_:)` is `-b 'NAME=VALUE'` as a header argument (none without it).
    private static func cookieHeader(_ connection: ConnectionArguments) -> [String] {
        connection.cookieHeader.map { ["Cookie: \($0)"] } ?? []
    }
}

/// `DirectoryChecks` resolves a batch entry's `dir=` against the current directory and
/// checks it once per distinct directory (created if missing, writable).
struct DirectoryChecks {
    private var known: [String: String?] = [:]
    private let cwd = FileManager.default.currentDirectoryPath

    /// `prepare(_:)` makes `directory` absolute in place and returns a problem, or `nil`.
    mutating func prepare(_ directory: inout String?) -> String? {
        guard let given = directory else { return nil }
        let absolute = given.hasPrefix("/") ? given : URL(fileURLWithPath: cwd).appendingPathComponent(given).path
        directory = absolute
        if let problem = known[absolute] { return problem }
        var problem: String?
        do throws(FerryError) {
            directory = try DownloadDirectory.prepare(absolute, environment: [:]).path
        } catch {
            problem = error.description
        }
        known[absolute] = problem
        return problem
    }
}
