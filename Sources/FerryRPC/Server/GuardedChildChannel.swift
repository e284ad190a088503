import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// `GuardedChildChannel` wraps the server's HTTP/WebSocket child channel: every connection
/// takes a place under its endpoint's `ConnectionCap` from the moment it is accepted, and one
/// that sends nothing within `headerTimeout` is closed (a half-open connection holds no
/// descriptor for long). After its first bytes the library's own idle timeout and WebSocket
/// pings take over.
struct GuardedChildChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value

    let inner: HTTP1WebSocketUpgradeChannel
    let cap: ConnectionCap
    let headerTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(cap.handler(firstByteTimeout: headerTimeout), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    /// `handle(value:logger:)` serves the connection on its own event loop (see
    /// `EventLoopTaskExecutor`).
    func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await inner.handle(value: value, logger: logger)
        }
    }
}
