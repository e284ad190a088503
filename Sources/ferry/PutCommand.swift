import ArgumentParser
import FerryKit
import Foundation

/// `PutCommand` is `ferry put URL`: upload now, headless, and print the server's reply.
struct PutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put",
        abstract: "Upload now, headless; the server's reply is printed on stdout.",
        discussion: """
        -F sends multipart/form-data with POST (curl's syntax: 'name=value', \
        'name=@PATH[;type=MIME][;filename=NAME]', 'name=<PATH' for a value read from a file). \
        -T sends a file as the raw body (PUT unless -X says otherwise). Every file is checked \
        before anything is sent.
        """
    )

    @Argument(help: "The http or https URL to send to.")
    var url: String

    @Option(name: [.customShort("T"), .customLong("upload-file")], help: "Send PATH as the raw request body.")
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

    @Option(name: [.customShort("H"), .customLong("header")], help: "Send the header 'Name: value' (repeatable).")
    var headers: [String] = []

    @Flag(help: "Print events as JSON lines on stdout.")
    var json = false

    func run() async throws {
        if let method, method.isEmpty || !method.allSatisfy({ $0.isASCII && $0.isLetter }) {
            Console.error("invalid method \"\(method)\"")
            throw ExitStatus.usage
        }
        let request: Request
        do throws(FerryError) {
            request = try makeRequest()
        } catch {
            // Whatever is wrong with the arguments or the files they name, nothing was sent: a usage error.
            Console.error(error.description)
            throw ExitStatus.usage
        }
        if let saveBody {
            try writeBody(to: saveBody)
            return
        }
        guard let body = request.body else { throw ExitStatus.usage }
        let session = SessionManager()
        let style: Reporter.Style = json ? .json : (Console.stderrIsTerminal ? .terminal : .plain)
        let reporter = Reporter(style: style, jobCount: 1, verb: "uploading to")
        let following = reporter.follow(session)
        let job = TransferJob(label: URLMasking.mask(request.url)) { session in
            session.uploadTask(with: request, body: body)
        }
        let trap = SignalTrap.install { signal in
            session.invalidate()
            reporter.clearLine()
            Console.error("interrupted; the upload was cancelled")
            Foundation.exit(signal == SIGINT ? 130 : 128 + signal)
        }
        let outcomes = await TransferRunner(session: session, concurrency: 1, retryPolicy: RetryPolicy(retryLimit: 0), reporter: reporter).run([job])
        trap.cancel()
        session.invalidate()
        await following.value
        guard case .success(let result) = outcomes.first else { throw ExitStatus.summarizing(outcomes) }
        let accepted = ReplyPrinter.print(result, json: json)
        throw accepted ? ExitStatus.success : ExitStatus.transferFailed
    }
}

extension PutCommand {
    /// Builds the request from the arguments; every file is opened (and closed) here, before anything is sent.
    func makeRequest() throws(FerryError) -> Request {
        let target = try Request.validatedURL(url)
        var fields = HTTPHeaders()
        for line in headers {
            let field = try HTTPHeaders.parseLine(line)
            fields.add(name: field.name, value: field.value)
        }
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
            var form = MultipartFormData()
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
        // Opening it now turns a missing or unreadable file into an error before anything is sent.
        let fileURL = URL(fileURLWithPath: uploadFile)
        FileBodyStream.check(try FileBodyStream(url: fileURL))
        return Request(url: target, method: HTTPMethod(rawValue: method ?? "PUT"), headers: fields, body: .file(fileURL))
    }

    /// `--save-body`: writes exactly the multipart bytes that would be sent, never replacing an existing file.
    func writeBody(to path: String) throws {
        do throws(FerryError) {
            guard !formFields.isEmpty else { throw .input(.invalidOption("--save-body goes with -F fields")) }
            var form = MultipartFormData()
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

/// `ReplyPrinter` shows the server's reply through a compound response serializer: JSON
/// pretty-printed, XML or text as text, images as `PNG 640x480`, anything else as its size and type.
enum ReplyPrinter {
    /// `Reply` is what the compound serializer made of the body.
    enum Reply: Sendable {
        case json(ParameterValue?)
        case xml
        case image(ImageInfo)
        case raw(Data)
    }

    static let serializer = CompoundResponseSerializer<Reply>([
        JSONResponseSerializer().map { .json($0) },
        XMLParserResponseSerializer().map { _ in .xml },
        ImageResponseSerializer().map { .image($0) },
        HTTPResponseSerializer().map { .raw($0) },
    ])

    /// Prints the reply; returns whether it was acceptable (a 2xx status).
    static func print(_ result: TransferResult, json: Bool) -> Bool {
        let response = result.response
        let data = result.data ?? Data()
        if json {
            var fields: [String: Any] = ["event": "reply", "status": response.statusCode, "bytes": data.count]
            fields["content_type"] = response.headers["Content-Type"] ?? NSNull()
            fields["body"] = String(data: data, encoding: .utf8).map { $0 as Any } ?? NSNull()
            if let encoded = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]), let text = String(data: encoded, encoding: .utf8) {
                Console.output(text)
            }
            return response.isSuccess
        }
        do throws(FerryError) {
            switch try serializer.serialize(response: response, data: data) {
            case .json(let value):
                if let value { Console.output(value.prettyPrintedJSON) }
            case .xml:
                printText(data)
            case .image(let info):
                Console.output(info.description)
            case .raw(let body):
                if body.isEmpty { break }
                if !printText(body) {
                    Console.output("\(ByteFormatting.size(Int64(body.count))) of \(response.mimeType ?? "application/octet-stream")")
                }
            }
            return true
        } catch {
            Console.error(error.validationMessage ?? error.description)
            if case .validation(.unacceptableStatus(_, _, _, let body?)) = error, let message = String(data: body, encoding: .utf8), !message.isEmpty {
                Console.error("the server said: " + message.trimmingCharacters(in: .whitespacesAndNewlines).printableLine)
            }
            return false
        }
    }

    /// Prints `data` when it is text; returns whether it was.
    @discardableResult
    private static func printText(_ data: Data) -> Bool {
        guard let text = String(data: data, encoding: .utf8), !text.unicodeScalars.contains(where: { $0.value == 0 }) else { return false }
        Console.output(text.hasSuffix("\n") ? String(text.dropLast()) : text)
        return true
    }
}

extension String {
    /// The text with control characters other than newline and tab removed, so a server's
    /// message cannot drive the terminal.
    var printableLine: String {
        String(String.UnicodeScalarView(unicodeScalars.filter { $0 == "\n" || $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value)) }))
    }
}
