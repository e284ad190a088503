// A server of the IETF resumable-upload draft for Ferry's tests, on 127.0.0.1: SwiftNIO's
// `NIOResumableUpload` (interop versions 3, 5 and 6) in front of an application that stores
// every upload it is given in a directory.
//
//   resumable-upload-server --port 0 --files DIR [--exit-on-stdin-eof]
//
// Prints `PORT <n>` once it listens. Endpoints:
// - POST or PUT to any path: an upload. The application sees one request, however many
//   requests the client needed to send it; the body is stored as DIR/<id>.body and the reply
//   is 201 with `{"id":N,"bytes":N}` once the last byte is in.
// - GET /_uploads: every upload begun, as JSON: id, method, path, content type, bytes stored,
//   whether it ended.
// - GET /_received: `{"bytes":N,"versions":[...]}`: request body bytes received on every
//   connection since start (all requests, resumptions too), and the interop versions seen.
// The resumption URLs (`Location`) are relative (`/resumable_upload/<token>`), so a client
// behind a proxy resumes through the same proxy. State is in memory: a restarted server has
// forgotten every upload it had begun.
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix
import NIOResumableUpload

/// `Uploads` is the record of every upload begun, shared by the connections' handlers.
final class Uploads: Sendable {
    struct Entry: Sendable {
        var method: String
        var path: String
        var contentType: String?
        var bytes: Int64 = 0
        var complete = false
    }

    let directory: URL
    private let state = NIOLockedValueBox<(next: Int, entries: [Int: Entry], received: Int64, versions: Set<String>)>(
        (1, [:], 0, [])
    )

    init(directory: URL) {
        self.directory = directory
    }

    func begin(method: String, path: String, contentType: String?) -> Int {
        state.withLockedValue { state in
            let id = state.next
            state.next += 1
            state.entries[id] = Entry(method: method, path: path, contentType: contentType)
            return id
        }
    }

    func update(_ id: Int, _ change: (inout Entry) -> Void) {
        state.withLockedValue { state in
            if var entry = state.entries[id] {
                change(&entry)
                state.entries[id] = entry
            }
        }
    }

    func received(_ count: Int, version: String?) {
        state.withLockedValue { state in
            state.received += Int64(count)
            if let version { state.versions.insert(version) }
        }
    }

    func listing() -> String {
        state.withLockedValue { state in
            let items = state.entries.keys.sorted().map { id -> String in
                let entry = state.entries[id]!
                let type = entry.contentType.map { "\"\(escaped($0))\"" } ?? "null"
                return "{\"id\":\(id),\"method\":\"\(entry.method)\",\"path\":\"\(escaped(entry.path))\","
                    + "\"contentType\":\(type),\"bytes\":\(entry.bytes),\"complete\":\(entry.complete)}"
            }
            return "[" + items.joined(separator: ",") + "]"
        }
    }

    func receivedSummary() -> String {
        state.withLockedValue { state in
            let versions = state.versions.sorted().map { "\"\(escaped($0))\"" }.joined(separator: ",")
            return "{\"bytes\":\(state.received),\"versions\":[\(versions)]}"
        }
    }

    private func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}

/// `ReceivedCounter` counts request body bytes before the resumable-upload handler sees them
/// (on the connection's event loop).
final class ReceivedCounter: ChannelInboundHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    private let uploads: Uploads
    private var version: String?

    init(uploads: Uploads) {
        self.uploads = uploads
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            version = request.headerFields[HTTPField.Name("Upload-Draft-Interop-Version")!]
            uploads.received(0, version: version)
        case .body(let body):
            uploads.received(body.readableBytes, version: nil)
        case .end:
            break
        }
        context.fireChannelRead(data)
    }
}

/// `StoringHandler` is the application: one instance per upload (or control request), on the
/// upload's event loop.
final class StoringHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPRequestPart
    typealias OutboundIn = Never
    typealias OutboundOut = HTTPResponsePart

    private let uploads: Uploads
    private var file: FileHandle?
    private var id: Int?
    private var control: String?

    init(uploads: Uploads) {
        self.uploads = uploads
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            let path = request.path ?? "/"
            switch request.method {
            case .post, .put:
                let id = uploads.begin(method: request.method.rawValue, path: path,
                                       contentType: request.headerFields[.contentType])
                let url = uploads.directory.appendingPathComponent("\(id).body")
                _ = FileManager.default.createFile(atPath: url.path, contents: nil)
                file = try? FileHandle(forWritingTo: url)
                self.id = id
            case .get where path == "/_uploads":
                control = uploads.listing()
            case .get where path == "/_received":
                control = uploads.receivedSummary()
            default:
                control = ""
            }
        case .body(let body):
            guard let id, let file else { return }
            body.withUnsafeReadableBytes { file.write(Data($0)) }
            uploads.update(id) { $0.bytes += Int64(body.readableBytes) }
        case .end:
            if let control {
                // Then closed: a control request is one per connection.
                respond(context: context, status: control.isEmpty ? .notFound : .ok, body: control, closing: true)
            } else if let id {
                try? file?.synchronize()
                try? file?.close()
                file = nil
                var stored: Int64 = 0
                uploads.update(id) {
                    $0.complete = true
                    stored = $0.bytes
                }
                respond(context: context, status: .created, body: "{\"id\":\(id),\"bytes\":\(stored)}")
            }
        }
    }

    private func respond(context: ChannelHandlerContext, status: HTTPResponse.Status, body: String, closing: Bool = false) {
        var response = HTTPResponse(status: status)
        response.headerFields[.contentType] = "application/json"
        response.headerFields[.contentLength] = "\(body.utf8.count)"
        if closing { response.headerFields[.connection] = "close" }
        context.write(wrapOutboundOut(.head(response)), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(string: body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        if closing { context.close(promise: nil) }
    }
}

var port = 0
var directory: URL?
var exitOnStdinEOF = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--port": port = Int(arguments.popFirst() ?? "") ?? 0
    case "--files": directory = arguments.popFirst().map { URL(fileURLWithPath: $0, isDirectory: true) }
    case "--exit-on-stdin-eof": exitOnStdinEOF = true
    default:
        FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
        exit(2)
    }
}
guard let directory else {
    FileHandle.standardError.write(Data("usage: resumable-upload-server --port N --files DIR [--exit-on-stdin-eof]\n".utf8))
    exit(2)
}

let uploads = Uploads(directory: directory)
let uploadContext = HTTPResumableUploadContext(origin: "")
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let server: Channel
do {
    server = try ServerBootstrap(group: group)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                let sync = channel.pipeline.syncOperations
                try sync.configureHTTPServerPipeline()
                try sync.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                try sync.addHandler(ReceivedCounter(uploads: uploads))
                try sync.addHandler(
                    HTTPResumableUploadHandler(context: uploadContext) { child in
                        try? child.pipeline.syncOperations.addHandler(StoringHandler(uploads: uploads))
                    }
                )
            }
        }
        .bind(host: "127.0.0.1", port: port)
        .wait()
} catch {
    FileHandle.standardError.write(Data("cannot listen: \(error)\n".utf8))
    exit(1)
}
FileHandle.standardOutput.write(Data("PORT \(server.localAddress?.port ?? 0)\n".utf8))
if exitOnStdinEOF {
    let watcher = Thread {
        var byte: UInt8 = 0
        while read(0, &byte, 1) > 0 {}
        exit(0)
    }
    watcher.start()
}
try? server.closeFuture.wait()
