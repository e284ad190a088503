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
            Console.error(error.description)
            throw ExitStatus(code: error.exitStatus == 4 ? 2 : error.exitStatus)
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
        ReplyPrinter.print(result, json: json)
        throw result.response.isSuccess ? ExitStatus.success : ExitStatus.transferFailed
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
        if uploadFile != nil && !formFields.isEmpty {
            throw .input(.invalidOption("-T and -F cannot be combined: send either a raw file or a form"))
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
            throw .input(.invalidOption("nothing to send: give -F fields or -T FILE"))
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

/// `ReplyPrinter` shows the server's reply to an upload.
enum ReplyPrinter {
    static func print(_ result: TransferResult, json: Bool) {
        let response = result.response
        let data = result.data ?? Data()
        if json {
            var fields: [String: Any] = ["event": "reply", "status": response.statusCode, "bytes": data.count]
            fields["content_type"] = response.headers["Content-Type"] ?? NSNull()
            fields["body"] = String(data: data, encoding: .utf8).map { $0 as Any } ?? NSNull()
            if let encoded = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]), let text = String(data: encoded, encoding: .utf8) {
                Console.output(text)
            }
            return
        }
        if !response.isSuccess {
            Console.error("server answered \(response.statusCode) \(response.reasonPhrase)")
        }
        if data.isEmpty { return }
        if let text = String(data: data, encoding: .utf8) {
            Console.output(text.hasSuffix("\n") ? String(text.dropLast()) : text)
        } else {
            Console.output("\(ByteFormatting.size(Int64(data.count))) of \(response.mimeType ?? "application/octet-stream")")
        }
    }
}
