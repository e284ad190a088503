import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix

/// `RPCServer` serves `POST /jsonrpc` and WebSocket `/jsonrpc` on every endpoint through
/// Hummingbird and hummingbird-websocket (HTTP/1.1 and WebSocket frames are parsed by the
/// libraries, never by hand) and hands each request to an `RPCDispatcher`.
///
/// On a TCP endpoint a request that its `RequestOriginPolicy` refuses (a foreign `Origin` or
/// `Host`) is answered 403 before any method runs, and such a WebSocket upgrade 400. A body
/// larger than `RPCDispatcher.maximumRequestSize` is answered 413 with a JSON-RPC error; a wrong
/// token is answered when the secret's `TokenThrottle`, shared by every connection, says.
public struct RPCServer: Sendable {
    /// `Limits` bound what clients may hold: connections per endpoint and how long a
    /// connection may sit idle (or dribble its headers) before it is closed.
    public struct Limits: Sendable {
        /// `idleTimeout` closes a connection that sends nothing for this long, 30 s by
        /// default, as aria2 does.
        public var idleTimeout: Duration
        /// `tcpConnections` is how many connections one TCP endpoint holds at once, 256 by
        /// default; more are closed as they arrive.
        public var tcpConnections: Int
        /// `localConnections` is the cap of `control.sock`, 64 by default; kept apart so a
        /// TCP flood never starves the CLI and the UI.
        public var localConnections: Int
        /// `webSocketFrameSize` is the largest WebSocket frame read, 1 MiB (a request's
        /// limit, `RPCDispatcher.maximumRequestSize`).
        public var webSocketFrameSize: Int

        /// `init(idleTimeout:tcpConnections:localConnections:webSocketFrameSize:)` makes limits.
        public init(
            idleTimeout: Duration = .seconds(30), tcpConnections: Int = 256, localConnections: Int = 64,
            webSocketFrameSize: Int = RPCDispatcher.maximumRequestSize
        ) {
            self.idleTimeout = idleTimeout
            self.tcpConnections = tcpConnections
            self.localConnections = localConnections
            self.webSocketFrameSize = webSocketFrameSize
        }
    }

    /// `eventLoops` is the one event-loop thread every endpoint of this process is served on
    /// (made at the first server, never shut down). The door carries small requests, and
    /// aria2 serves its door on one thread too; NIO's shared group would start one thread per
    /// core, each with its own allocator arenas.
    static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    private let dispatcher: RPCDispatcher
    private let allowOriginAll: Bool
    private let allowAnyHost: Bool
    private let limits: Limits

    /// `init(dispatcher:allowOriginAll:allowAnyHost:limits:)` makes a server answering with
    /// `dispatcher`. With `allowOriginAll` (`--rpc-allow-origin-all`) a web page of any origin
    /// may call it (AriaNg): every answer carries `Access-Control-Allow-Origin: *` and CORS
    /// preflights are answered; without it, a request with a foreign `Origin` is refused.
    /// `allowAnyHost` (`--rpc-listen-all`) accepts any `Host`; without it, only the loopback
    /// names. Both `false` by default. `limits` are `Limits()` by default.
    public init(dispatcher: RPCDispatcher, allowOriginAll: Bool = false, allowAnyHost: Bool = false, limits: Limits = Limits()) {
        self.dispatcher = dispatcher
        self.allowOriginAll = allowOriginAll
        self.allowAnyHost = allowAnyHost
        self.limits = limits
    }

    /// `run(on:onListening:onFailure:)` listens on every endpoint until the calling task is
    /// cancelled. A Unix socket's stale file is replaced (the caller holds the engine lock)
    /// and made 0600 once bound. An optional endpoint that fails is passed to `onFailure`
    /// and the others go on; a required one that fails ends the run with its error.
    public func run(
        on endpoints: [RPCEndpoint],
        onListening: @escaping @Sendable (RPCEndpoint) -> Void,
        onFailure: @escaping @Sendable (RPCEndpoint, any Error) -> Void
    ) async throws {
        var logger = Logger(label: "ferry-rpc")
        logger.logLevel = .critical
        try await withThrowingTaskGroup(of: Void.self) { group in
            for endpoint in endpoints {
                let application = self.application(for: endpoint, logger: logger, onListening: onListening)
                group.addTask {
                    do {
                        try await application.run()
                    } catch {
                        guard !endpoint.required, !Task.isCancelled else { throw ListenFailure(endpoint: endpoint, error: error) }
                        onFailure(endpoint, error)
                    }
                }
            }
            // The first required endpoint that fails ends the run (and cancels the others);
            // `waitForAll()` would wait for the others first.
            while try await group.next() != nil {}
        }
    }

    private func application(
        for endpoint: RPCEndpoint, logger: Logger, onListening: @escaping @Sendable (RPCEndpoint) -> Void
    ) -> some ApplicationProtocol {
        let router = Router()
        // Added first, so it runs before every route, the CORS answers and "not found".
        let policy = originPolicy(for: endpoint)
        if let policy {
            router.add(middleware: RequestOriginMiddleware(policy: policy))
        }
        if allowOriginAll {
            router.add(middleware: CORSMiddleware(
                allowOrigin: .all, allowHeaders: [.contentType], allowMethods: [.post, .options], maxAge: .seconds(1_728_000)
            ))
        }
        let dispatcher = self.dispatcher
        let origin = endpoint.origin
        router.post("jsonrpc") { request, _ -> Response in
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: RPCDispatcher.maximumRequestSize)
            } catch {
                let error = RPCError.tooLarge(limit: RPCDispatcher.maximumRequestSize)
                return RPCServer.response(RPCDispatcher.errorBody(error), status: .contentTooLarge)
            }
            let answer = await dispatcher.answer(Data(body.readableBytesView), origin: origin)
            return RPCServer.response(answer.body, status: .ok)
        }
        let address: BindAddress
        let cap: ConnectionCap
        switch endpoint.address {
        case .unixSocket(let path):
            unlink(path)
            address = .unixDomainSocket(path: path)
            cap = ConnectionCap(limit: limits.localConnections)
        case .tcp(let host, let port):
            address = .hostname(host, port: port)
            cap = ConnectionCap(limit: limits.tcpConnections)
        }
        let (seconds, attoseconds) = limits.idleTimeout.components
        let idle = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: HTTP1Channel.Configuration(idleTimeout: idle),
            ws: WebSocketServerConfiguration(maxFrameSize: limits.webSocketFrameSize)
        )
        let server = HTTPServerBuilder { responder in
            GuardedChildChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: configuration) { request, _, _ in
                    // The library answers a refused upgrade 400 and closes; no message is read.
                    guard request.path?.split(separator: "?").first == "/jsonrpc", policy?.refusal(of: request) == nil else {
                        return .dontUpgrade
                    }
                    return .upgrade([:]) { inbound, outbound, _ in
                        try await RPCWebSocket.serve(inbound: inbound, outbound: outbound, dispatcher: dispatcher, origin: origin)
                    }
                },
                cap: cap, headerTimeout: idle
            )
        }
        return Application(
            router: router,
            server: server,
            configuration: ApplicationConfiguration(address: address, serverName: nil),
            onServerRunning: { _ in
                if case .unixSocket(let path) = endpoint.address {
                    chmod(path, 0o600)
                }
                onListening(endpoint)
            },
            eventLoopGroupProvider: .shared(RPCServer.eventLoops),
            logger: logger
        )
    }

    /// `originPolicy(for:)` is the `Origin` and `Host` policy of a TCP endpoint; `nil` for a
    /// Unix socket, whose file mode and peer credentials guard it.
    private func originPolicy(for endpoint: RPCEndpoint) -> RequestOriginPolicy? {
        guard case .tcp(_, let port) = endpoint.address else { return nil }
        return RequestOriginPolicy(port: port, allowsAnyOrigin: allowOriginAll, allowsAnyHost: allowAnyHost)
    }

    private static func response(_ body: Data, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }
}

/// `ListenFailure` is a required endpoint the server could not listen on, and why.
public struct ListenFailure: Error, CustomStringConvertible {
    /// `endpoint` is the address that failed.
    public let endpoint: RPCEndpoint
    /// `error` is the library's error.
    public let error: any Error

    public var description: String { "\(endpoint): \(error)" }
}
