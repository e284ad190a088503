import ArgumentParser
import FerryKit
import FerryQueue
import Foundation

/// `PutCommand` is `ferry put URL`: upload now, headless, and print the server's reply.
struct PutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put",
        abstract: "Upload now, headless; the server's reply is printed on stdout.",
        discussion: """
        -F sends multipart/form-data with POST (curl's syntax: 'name=value', \
        'name=@PATH[;type=MIME][;filename=NAME]', 'name=<PATH' for a value read from a file). \
        -T sends a file as the raw body (PUT unless -X says otherwise); '-T -' sends standard \
        input and '-T FIFO' a named pipe, both streamed with chunked transfer encoding. Every \
        file is checked before anything is sent. The reply is written to stdout as received \
        (like curl); --pretty shows it for people instead (JSON pretty-printed, images as their \
        size). -H @FILE reads header lines from FILE, so secrets stay off the command line. \
        --resumable makes a -T FILE or -F upload resumable: tus when the URL's OPTIONS answers \
        Tus-Resumable, else the IETF resumable-upload protocol offered on the upload itself \
        (--resumable=tus or =ietf insists on one). A dropped connection resumes in the same run; \
        after Ctrl-C or a crash the same command asks the server for its offset and sends the rest \
        (the resume data is kept in the state directory). A changed file starts a new upload; a form's \
        boundary is made from the command, so the same command sends the same bytes.
        """
    )

    @Argument(help: "The http or https URL to send to.")
    var url: String

    @Option(name: [.customShort("T"), .customLong("upload-file")], help: "Send PATH as the raw request body ('-' for standard input; a FIFO is read as it is written).")
    var uploadFile: String?

    @Option(name: [.customShort("F"), .customLong("form-field")], help: ArgumentHelp("Add a multipart field: 'name=value', 'name=@PATH[;type=MIME][;filename=NAME]' or 'name=<PATH' (repeatable).", valueName: "field"))
    var formFields: [String] = []

    @Option(name: .customLong("form"), help: ArgumentHelp("Send key=value in an x-www-form-urlencoded POST body; a[b]=v nests (repeatable).", valueName: "key=value"))
    var form: [String] = []

    @Option(name: .customLong("json-body"), help: "Send the JSON document in FILE (checked first) with Content-Type application/json.")
    var jsonBody: String?

    @Option(name: .customLong("save-body"), help: "Write the exact body that would be sent to FILE instead of sending it.")
    var saveBody: String?

    @Option(name: [.customShort("X"), .customLong("method")], help: "The request method (default: PUT for -T).")
    var method: String?

    @Option(name: [.customShort("H"), .customLong("header")], help: "Send the header 'Name: value', or the lines of FILE with @FILE (repeatable).")
    var headers: [String] = []

    @OptionGroup var requestLimits: RequestLimitOptions

    @Option(name: .customLong("resumable"), help: ArgumentHelp("Make the upload resumable: auto (alone: --resumable), ietf or tus.", valueName: "protocol"))
    var resumable: ResumableUploadOptions.Mode?

    @Flag(name: .customLong("no-resumable"), help: "Send the upload once, as a plain request (the default; overrides a configured --resumable).")
    var noResumable = false

    @Option(name: .customLong("upload-interop-version"), help: ArgumentHelp("With --resumable: the IETF draft's interop version to speak (3, 5 or 6).", valueName: "N"))
    var interopVersion = 6

    @Option(name: .customLong("retry"), help: ArgumentHelp("With --resumable: attempts in a row without progress before giving up, after the first.", valueName: "N"))
    var retries = 5

    @OptionGroup var state: StateOptions

    @Option(name: .customLong("limit-rate"), help: ArgumentHelp("Cap the upload's speed, e.g. 500K or 2M (bytes per second).", valueName: "RATE"))
    var limitRate: String?

    @Flag(help: "Print events as JSON lines on stdout.")
    var json = false

    @Flag(name: .customLong("compressed"), help: "Ask for a compressed reply (gzip, deflate, br, zstd) and print it decoded.")
    var compressed = false

    @OptionGroup(title: "TLS") var trust: TrustOptions

    @OptionGroup(title: "TLS rules per host") var trustRules: TrustRuleOptions

    @OptionGroup(title: "Logins and proxy") var login: LoginOptions

    @Flag(name: [.short, .long], help: "Print the request and response heads on stderr (\"> \" sent, \"< \" received), secrets masked, as curl -v does.")
    var verbose = false

    @Flag(name: [.short, .long], help: "Print errors only: no progress; the reply is still printed on stdout.")
    var quiet = false

    @Flag(help: "Show the reply for people: JSON pretty-printed, XML and text as text, images as their size and type. Without it the reply is printed as received.")
    var pretty = false

    func run() async throws {
        Console.quiet = quiet
        if !ResumableUploadOptions.supportedInteropVersions.contains(interopVersion) {
            Console.error("--upload-interop-version: \(interopVersion) is not one of 3, 5, 6")
            throw ExitStatus.usage
        }
        if retries < 0 {
            Console.error("--retry: give 0 or more attempts")
            throw ExitStatus.usage
        }
        if let method, method.isEmpty || !method.allSatisfy({ $0.isASCII && $0.isLetter }) {
            Console.error("invalid method \"\(method)\"")
            throw ExitStatus.usage
        }
        let request: Request
        let trustManager: ServerTrustManager?
        var resumed: (files: [String], key: String)?
        do throws(FerryError) {
            trustManager = try trustRules.manager(environment: ProcessInfo.processInfo.environment)
            if resumableMode != nil {
                let files = try resumeFiles()
                resumed = (files, resumeKey(files: files))
            }
            var made = try makeRequest(boundary: resumed.map { JournalUploadResumeStore.boundary(forKey: $0.key) })
            made.acceptsCompression = compressed
            (made.connectTimeout, made.maximumTime) = try requestLimits.parsed()
            made.securityPolicy = try trust.policy(environment: ProcessInfo.processInfo.environment)
            made.login = try login.login(environment: ProcessInfo.processInfo.environment)
            made.proxy = try login.proxySettings()
            let netrc = try login.netrc()
            made.usesNetrc = netrc.uses
            made.netrcFile = netrc.file
            let cookies = try login.cookieSettings()
            if let pairs = cookies.header {
                made.headers["Cookie"] = made.headers["Cookie"].map { $0 + "; " + pairs } ?? pairs
            }
            made.cookieFiles = cookies.files
            made.cookieJar = cookies.jar
            if let limitRate {
                guard let rate = TaskOptions.parseByteCount(limitRate), rate > 0 else {
                    throw .input(.invalidOption("invalid --limit-rate \"\(limitRate)\": expected a number with an optional K, M or G suffix"))
                }
                made.maximumSendSpeed = rate
            }
            request = made
            if trust.insecure {
                Console.error("warning: --insecure: TLS certificates and host names are not checked")
            }
            TrustRuleOptions.warnIfInsecure(trustManager)
        } catch {
            // Whatever is wrong with the arguments or the files they name, nothing was sent: a usage error.
            Console.error(error.description)
            throw ExitStatus.usage
        }
        if let saveBody {
            try writeBody(to: saveBody, boundary: resumed.map { JournalUploadResumeStore.boundary(forKey: $0.key) })
            return
        }
        guard let body = request.body else { throw ExitStatus.usage }
        let style = Reporter.Style(json: json)
        let reporter = Reporter(style: style, jobCount: 1, verb: "uploading to")
        var sessionConfiguration = SessionConfiguration()
        sessionConfiguration.trustManager = trustManager
        if verbose {
            sessionConfiguration.headTrace = { trace in reporter.showHead(trace) }
        }
        let session = SessionManager(configuration: sessionConfiguration)
        let following = reporter.follow(session)
        let output = ReplyOutput(mode: json ? .keep : (pretty ? .pretty : .raw), terminal: Console.stdoutIsTerminal)
        let resumes = resumableMode != nil
        let trap = SignalTrap.install { signal in
            session.invalidate()
            reporter.clearLine()
            Console.error(resumes ? "interrupted; the upload can resume: run the same command again" : "interrupted; the upload was cancelled")
            Foundation.exit(signal == SIGINT ? 130 : 128 + signal)
        }
        let outcomes: [Result<TransferResult, FerryError>]
        if let mode = resumableMode, let resumed {
            outcomes = [try await runResumable(request, files: resumed.files, key: resumed.key, mode: mode, session: session, reporter: reporter, output: output)]
        } else {
            let job = TransferJob(label: URLMasking.mask(request.url)) { session in
                session.uploadTask(with: request, body: body, keepingReplyBytes: output.keptLimit, sink: output)
            }
            outcomes = await TransferRunner(session: session, concurrency: 1, reporter: reporter).run([job])
        }
        trap.cancel()
        session.invalidate()
        await following.value
        guard case .success(let result) = outcomes.first else { throw ExitStatus.summarizing(outcomes) }
        let accepted = ReplyPrinter.print(result, output: output)
        throw accepted ? ExitStatus.success : ExitStatus.transferFailed
    }
}

extension PutCommand {
    /// Builds the request from the arguments; every file is opened (and closed) here, before
    /// anything is sent. A form takes `boundary` when given (a resumable form's).
    func makeRequest(boundary: String? = nil) throws(FerryError) -> Request {
        let target = try Request.validatedURL(url)
        var fields = HTTPHeaders()
        if HeaderArguments.readsStandardInput(headers) && uploadFile == "-" {
            throw .input(.invalidOption("-H @- and -T - both read standard input: give one of them a file"))
        }
        for line in try HeaderArguments.expand(headers) {
            let field = try HTTPHeaders.parseLine(line)
            fields.add(name: field.name, value: field.value)
        }
        try requestLimits.apply(to: &fields)
        let bodies = [uploadFile != nil, !formFields.isEmpty, !form.isEmpty, jsonBody != nil].filter { $0 }.count
        if bodies > 1 {
            throw .input(.invalidOption("give one body: -T FILE, -F fields, --form fields or --json-body FILE"))
        }
        if !form.isEmpty {
            let parameters = ParameterValue.dictionary(try ParameterArguments.parse(form, option: "--form"))
            let base = Request(url: target, method: HTTPMethod(rawValue: method ?? "POST"), headers: fields)
            return try HTTPRequestSerializer().request(bySerializing: base, parameters: parameters)
        }
        if let jsonBody {
            guard let data = FileManager.default.contents(atPath: jsonBody) else {
                throw .input(.missingFile(jsonBody))
            }
            let document = try ParameterValue(jsonData: data, allowsFragments: true)
            let base = Request(url: target, method: HTTPMethod(rawValue: method ?? "POST"), headers: fields)
            var request = try JSONRequestSerializer().request(bySerializing: base, parameters: document)
            if !request.headers.contains("Accept") { request.headers["Accept"] = "application/json" }
            return request
        }
        if !formFields.isEmpty {
            var form = try boundary.map { (boundary) throws(FerryError) in try MultipartFormData(boundary: boundary) } ?? MultipartFormData()
            for argument in formFields {
                try form.append(FormFieldSpec.parse(argument))
            }
            let base = Request(url: target, method: HTTPMethod(rawValue: method ?? "POST"), headers: fields)
            var request = form.applied(to: base)
            if form.isEmpty { request.body = .data(Data()) }
            return request
        }
        guard let uploadFile else {
            throw .input(.invalidOption("nothing to send: give -F fields, --form fields, --json-body FILE or -T FILE"))
        }
        let rawMethod = HTTPMethod(rawValue: method ?? "PUT")
        if uploadFile == "-" {
            // Read as it comes, sent chunked: its length is known only at the end.
            return Request(url: target, method: rawMethod, headers: fields, body: .standardInput)
        }
        var info = stat()
        if stat(uploadFile, &info) == 0, (info.st_mode & S_IFMT) == S_IFIFO {
            // Opened now without blocking (no writer may have come yet), read as it is written.
            return Request(url: target, method: rawMethod, headers: fields, body: try .pipe(path: uploadFile))
        }
        // Opening it now turns a missing or unreadable file into an error before anything is sent.
        let fileURL = URL(fileURLWithPath: uploadFile)
        FileBodyStream.check(try FileBodyStream(url: fileURL))
        return Request(url: target, method: rawMethod, headers: fields, body: .file(fileURL))
    }

    /// `--save-body`: writes exactly the multipart bytes that would be sent (with `--resumable`,
    /// the ones a resumable upload of the same command sends), never replacing an existing file.
    func writeBody(to path: String, boundary: String? = nil) throws {
        do throws(FerryError) {
            guard !formFields.isEmpty else { throw .input(.invalidOption("--save-body goes with -F fields")) }
            var form = try boundary.map { (boundary) throws(FerryError) in try MultipartFormData(boundary: boundary) } ?? MultipartFormData()
            for argument in formFields {
                try form.append(FormFieldSpec.parse(argument))
            }
            let length = try form.writeBody(to: URL(fileURLWithPath: path))
            Console.status("wrote \(length) bytes to \(path) (Content-Type: \(form.contentType))\n")
        } catch {
            Console.error(error.description)
            throw ExitStatus(code: error.exitStatus)
        }
    }
}

extension FileBodyStream {
    /// Closes a stream opened only to check that its file can be read.
    static func check(_ stream: FileBodyStream) {
        stream.close()
    }
}

