import NIOCore
import Synchronization

/// `ConnectionCap` counts the open connections of one endpoint and closes each one past
/// `limit` as it arrives, so a flood of idle connections to the TCP port cannot take every
/// file descriptor: `control.sock` has its own cap and keeps answering the CLI and UI.
/// Thread-safe: the count is atomic.
final class ConnectionCap: Sendable {
    /// `limit` is how many connections may be open at once.
    let limit: Int
    private let open = Atomic<Int>(0)

    /// `init(limit:)` makes a cap of `limit` connections.
    init(limit: Int) {
        self.limit = limit
    }

    /// `handler(firstByteTimeout:)` is the channel handler one new connection carries.
    func handler(firstByteTimeout: TimeAmount) -> Handler {
        Handler(cap: self, firstByteTimeout: firstByteTimeout)
    }

    /// `Handler` takes a place when its connection becomes active and gives it back when it
    /// closes; past the limit it closes the connection at once. A connection that sends
    /// nothing within `firstByteTimeout` is closed (after its first bytes the HTTP idle
    /// timeout and WebSocket pings take over). Used on its channel's event loop only.
    final class Handler: ChannelInboundHandler {
        typealias InboundIn = NIOAny
        private let cap: ConnectionCap
        private let firstByteTimeout: TimeAmount
        private var counted = false
        private var deadline: Scheduled<Void>?

        init(cap: ConnectionCap, firstByteTimeout: TimeAmount) {
            self.cap = cap
            self.firstByteTimeout = firstByteTimeout
        }

        func handlerAdded(context: ChannelHandlerContext) {
            // A child channel may be active already when its pipeline is set up.
            if context.channel.isActive { start(context: context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            start(context: context)
            context.fireChannelActive()
        }

        private func start(context: ChannelHandlerContext) {
            guard !counted else { return }
            counted = true
            if cap.open.wrappingAdd(1, ordering: .relaxed).newValue > cap.limit {
                context.close(promise: nil)
                return
            }
            let channel = context.channel
            deadline = context.eventLoop.scheduleTask(in: firstByteTimeout) { channel.close(promise: nil) }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            deadline?.cancel()
            deadline = nil
            context.fireChannelRead(data)
        }

        func channelInactive(context: ChannelHandlerContext) {
            deadline?.cancel()
            deadline = nil
            if counted {
                counted = false
                cap.open.wrappingSubtract(1, ordering: .relaxed)
            }
            context.fireChannelInactive()
        }
    }
}
