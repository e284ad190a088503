import FerryKit
import Foundation

/// `ReplyOutput` takes the reply of `ferry put` as it arrives (a `ReplySink`): an accepted
/// (2xx) body is written to stdout as received, byte for byte, like curl; with `--pretty` it is
/// held (up to ``prettyLimit``) to be shown for people at the end. Nothing else is kept: the
/// task's delegate keeps ``keptLimit`` bytes for the error message or the JSON event.
///
/// A binary body (a NUL in its first bytes) is not written to a terminal; its size is said.
/// `@unchecked Sendable`: written on the engine thread while the transfer runs, read on the
/// command's thread after it ended.
final class ReplyOutput: ReplySink, @unchecked Sendable {
    /// `Mode` is what becomes of the body.
    enum Mode {
        /// Written to stdout as received.
        case raw
        /// Held for `--pretty` (written as received once it passes ``prettyLimit``).
        case pretty
        /// Only its start kept, for `--json`'s reply event.
        case keep
    }

    /// The most bytes `--pretty` holds; a larger reply is printed as received.
    static let prettyLimit = 16 << 20
    /// The most body bytes `--json` puts in its reply event.
    static let jsonBodyLimit = 1 << 20
    /// The most bytes of a rejected reply kept for the error message.
    static let errorLimit = 64 << 10

    let mode: Mode
    let terminal: Bool
    /// Body bytes written to stdout.
    private(set) var written: Int64 = 0
    /// Whether a binary body was kept off the terminal.
    private(set) var withheld = false
    /// What `--pretty` holds (while it is under ``prettyLimit``).
    private(set) var held = Data()
    /// Whether `--pretty` gave up holding and printed the reply as received.
    private(set) var overflowed = false
    private var accepted = false

    init(mode: Mode, terminal: Bool) {
        self.mode = mode
        self.terminal = terminal
    }

    /// The most body bytes the task's delegate keeps.
    var keptLimit: Int { mode == .keep ? ReplyOutput.jsonBodyLimit : ReplyOutput.errorLimit }

    func reply(_ response: HTTPResponse) throws(FerryError) {
        accepted = response.isSuccess
    }

    func reply(body bytes: UnsafeRawBufferPointer) throws(FerryError) {
        guard accepted, !withheld else { return }
        switch mode {
        case .keep:
            return
        case .pretty where !overflowed:
            if held.count + bytes.count <= ReplyOutput.prettyLimit {
                held.append(contentsOf: bytes)
                return
            }
            overflowed = true
            let start = held
            held = Data()
            let code = start.withUnsafeBytes { Console.outputBytes($0) }
            guard code == 0 else { throw .file(.from(errno: code, path: "standard output", operation: "write")) }
            written += Int64(start.count)
            try write(bytes)
        case .raw, .pretty:
            if written == 0, terminal, bytes.contains(0) {
                withheld = true
                return
            }
            // On a terminal the progress lines are drawn over: the reply waits (up to
            // ``prettyLimit``) to be printed whole once they are cleared.
            if mode == .raw, terminal, !overflowed {
                if held.count + bytes.count <= ReplyOutput.prettyLimit {
                    held.append(contentsOf: bytes)
                    return
                }
                overflowed = true
                let start = held
                held = Data()
                let code = start.withUnsafeBytes { Console.outputBytes($0) }
                guard code == 0 else { throw .file(.from(errno: code, path: "standard output", operation: "write")) }
                written += Int64(start.count)
            }
            try write(bytes)
        }
    }

    /// `printHeld()` prints the reply a terminal held back, whole, after the status line; one
    /// without a final newline is followed by one on stderr, so nothing is glued to it.
    func printHeld() {
        guard mode == .raw, terminal, !overflowed, !held.isEmpty else { return }
        let body = held
        held = Data()
        _ = body.withUnsafeBytes { Console.outputBytes($0) }
        written += Int64(body.count)
        if body.last != UInt8(ascii: "\n") { Console.status("\n") }
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws(FerryError) {
        let code = Console.outputBytes(bytes)
        guard code == 0 else { throw .file(.from(errno: code, path: "standard output", operation: "write")) }
        written += Int64(bytes.count)
    }
}

/// `ReplyPrinter` says what became of the server's reply once the upload ended: the body of an
/// accepted reply was already written as received (``ReplyOutput``); `--pretty` shows it
/// through a compound response serializer (JSON pretty-printed, XML or text as text, images
/// as `PNG 640x480`, anything else as its size and type); `--json` prints one reply event; a
/// rejected reply is reported on stderr with the start of the server's message, escaped.
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

    /// Finishes showing the reply; returns whether it was acceptable (a 2xx status).
    static func print(_ result: TransferResult, output: ReplyOutput) -> Bool {
        let response = result.response
        let kept = result.data ?? Data()
        let total = max(result.bytesReceived, Int64(kept.count))
        if output.mode == .keep {
            var line = JSONLine()
            line.add("event", "reply")
            line.add("status", response.statusCode)
            line.add("bytes", total)
            line.add("content_type", response.headers["Content-Type"])
            line.add("body", text(of: kept))
            line.add("body_truncated", total > Int64(kept.count))
            Console.output(line.line)
            return response.isSuccess
        }
        guard response.isSuccess else {
            reportRejected(response, kept: kept, total: total)
            return false
        }
        if output.withheld {
            Console.status("\(ByteFormatting.size(total)) of \(response.mimeType ?? "application/octet-stream") not shown: binary data on a terminal (redirect stdout to keep it)\n")
            return true
        }
        guard output.mode == .pretty else {
            output.printHeld()
            return true
        }
        if output.overflowed {
            Console.status("the reply is larger than \(ByteFormatting.size(Int64(ReplyOutput.prettyLimit))): it was printed as received\n")
            return true
        }
        showPretty(response, data: output.held)
        return true
    }

    /// `--pretty`: the held body through the compound serializer.
    private static func showPretty(_ response: HTTPResponse, data: Data) {
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
        } catch {
            Console.error(error.validationMessage ?? error.description)
        }
    }

    /// A rejected reply: the status, then the start of the server's message (escaped by `Console`).
    private static func reportRejected(_ response: HTTPResponse, kept: Data, total: Int64) {
        let error = FerryError.validation(.unacceptableStatus(response.statusCode, reason: response.reasonPhrase, url: URLMasking.mask(response.url), body: kept))
        Console.error(error.validationMessage ?? error.description)
        // Lines ending in CRLF (most servers' error pages) are shown as lines, not as escaped CRs.
        guard let message = text(of: kept)?.replacingOccurrences(of: "\r\n", with: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines), !message.isEmpty else { return }
        let more = total > Int64(kept.count) ? " … (\(ByteFormatting.size(total)) in all)" : ""
        Console.error("the server said: " + message + more)
    }

    /// `text(of:)` is `data` as UTF-8 text (a cut last character dropped), `nil` when it is not text.
    static func text(of data: Data) -> String? {
        guard !data.contains(0) else { return nil }
        for trim in 0...min(3, data.count) {
            if let text = String(data: data.dropLast(trim), encoding: .utf8) { return text }
        }
        return nil
    }

    /// Prints `data` when it is text; returns whether it was.
    @discardableResult
    private static func printText(_ data: Data) -> Bool {
        guard let text = String(data: data, encoding: .utf8), !text.unicodeScalars.contains(where: { $0.value == 0 }) else { return false }
        Console.output(text.hasSuffix("\n") ? String(text.dropLast()) : text)
        return true
    }
}
