import FerryKit
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// `ControlClient` calls a method of the daemon through its Unix socket (`control.sock`),
/// over HTTP/1.1 as swift-nio's client handlers speak it.
public enum ControlClient {
    /// `Failure` is why a call got no answer.
    public enum Failure: Error, Sendable {
        /// `noDaemon` means nothing listens on the socket (no file, or a stale one).
        case noDaemon
        /// `notOwner` means the process listening on the socket runs as another user (`uid`):
        /// nothing was sent to it.
        case notOwner(path: String, uid: UInt32)
        /// `badAnswer` means the answer was not a JSON-RPC reply.
        case badAnswer(String)
        /// `rpc` is the error the daemon answered.
        case rpc(RPCError)
    }

    /// `call(socketPath:method:params:timeout:)` sends one request and returns its `result`.
    public static func call(
        socketPath: String, method: String, params: [JSONValue] = [], timeout: Duration = .seconds(10)
    ) async throws(Failure) -> JSONValue {
        let request = RPCDispatcher.request(method, params)
        let socket = try connectedSocket(socketPath)
        let group = MultiThreadedEventLoopGroup.singleton
        let promise = group.next().makePromise(of: ByteBuffer.self)
        let body = request.serialized()
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(.seconds(Int64(timeout.components.seconds)))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(ExchangeHandler(body: body, promise: promise))
                    }
                }
                .withConnectedSocket(socket)
                .get()
        } catch {
            close(socket)
            promise.fail(error)
            throw .noDaemon
        }
        let timer = channel.eventLoop.scheduleTask(in: .seconds(Int64(timeout.components.seconds))) {
            channel.close(promise: nil)  // the handler then fails the promise
        }
        let answer: ByteBuffer
        do {
            answer = try await promise.futureResult.get()
        } catch {
            timer.cancel()
            throw .badAnswer("no answer: \(error)")
        }
        timer.cancel()
        switch RPCDispatcher.result(of: Data(answer.readableBytesView)) {
        case .success(let result)?: return result
        case .failure(let error)?: throw .rpc(error)
        case nil: throw .badAnswer("the answer is not a JSON-RPC reply")
        }
    }

    /// `connectedSocket(_:)` connects to `path` and checks, before anything is sent, that the
    /// process listening runs as this user (`SO_PEERCRED`): a socket put in place by another
    /// user would otherwise receive the CLI's requests, credentials in URLs included.
    private static func connectedSocket(_ path: String) throws(Failure) -> Int32 {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .noDaemon }
        guard SystemCall.connect(fd, toSocketAt: path) else {
            close(fd)
            throw .noDaemon
        }
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (Glibc does not import it).
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            close(fd)
            throw .noDaemon
        }
        guard credentials.uid == geteuid() else {
            close(fd)
            throw .notOwner(path: path, uid: credentials.uid)
        }
        return fd
    }
}

/// `ExchangeHandler` writes one request when the connection is up and completes its promise
/// with the answer's body. It lives on the channel's event loop only.
private final class ExchangeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let body: Data
    private let promise: EventLoopPromise<ByteBuffer>
    private var collected = ByteBuffer()
    private var finished = false

    init(body: Data, promise: EventLoopPromise<ByteBuffer>) {
        self.body = body
        self.promise = promise
    }

    func channelActive(context: ChannelHandlerContext) {
        var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: "/jsonrpc")
        head.headers.add(name: "Host", value: "localhost")
        head.headers.add(name: "Content-Type", value: "application/json")
        head.headers.add(name: "Content-Length", value: String(body.count))
        head.headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            break
        case .body(var buffer):
            collected.writeBuffer(&buffer)
        case .end:
            finish(.success(collected))
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(error))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(ChannelError.eof))
        context.fireChannelInactive()
    }

    private func finish(_ result: Result<ByteBuffer, any Error>) {
        guard !finished else { return }
        finished = true
        promise.completeWith(result)
    }
}
