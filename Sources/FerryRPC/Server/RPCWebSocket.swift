import Foundation
import HummingbirdWebSocket
import Synchronization

/// `RPCWebSocket` serves one WebSocket connection on `/jsonrpc`: each text (or binary)
/// message is a JSON-RPC request answered as `POST /jsonrpc` would be, and aria2's
/// notifications are sent as the scheduler's events happen.
enum RPCWebSocket {
    static func serve(
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, dispatcher: RPCDispatcher, origin: RPCOrigin
    ) async throws {
        let notifications = dispatcher.engine.notifications.subscribe()
        let engine = dispatcher.engine
        engine.webSocketClients.add(1, ordering: .relaxed)
        defer { engine.webSocketClients.subtract(1, ordering: .relaxed) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await notification in notifications {
                    try await outbound.write(.text(notification))
                }
            }
            group.addTask {
                for try await message in inbound.messages(maxSize: RPCDispatcher.maximumRequestSize) {
                    let body: Data
                    switch message {
                    case .text(let text): body = Data(text.utf8)
                    case .binary(let buffer): body = Data(buffer.readableBytesView)
                    }
                    // A wrong token's answer is held back inside by the secret's `TokenThrottle`.
                    let answer = await dispatcher.answer(body, origin: origin)
                    try await outbound.write(.text(String(decoding: answer.body, as: UTF8.self)))
                }
            }
            // The connection ends when the client closes it (or a write fails).
            try await group.next()
            group.cancelAll()
        }
    }
}
