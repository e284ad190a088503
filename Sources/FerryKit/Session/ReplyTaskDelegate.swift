import Foundation

/// `ReplySink` receives a reply body as it arrives, on the engine thread: to print it or save
/// it without holding it in memory.
public protocol ReplySink: AnyObject, Sendable {
    /// Called once with the final response, before the first body byte.
    func reply(_ response: HTTPResponse) throws(FerryError)
    /// Called with each chunk of the body, in order. A thrown error stops the transfer.
    func reply(body bytes: UnsafeRawBufferPointer) throws(FerryError)
}

/// `ReplyTaskDelegate` receives the reply to an upload with bounded memory: each chunk of the
/// body goes to the ``ReplySink`` (when there is one) as it arrives, and only the first
/// `keptLimit` bytes are kept.
///
/// The result's `data` is the kept start of the body and its `bytesReceived` the length of
/// the whole body, so `bytesReceived > data.count` says the body was cut. Mutable state is
/// touched only on the engine thread (and read by the completion after the last chunk).
public final class ReplyTaskDelegate: TaskDelegate, @unchecked Sendable {
    /// The most body bytes kept in memory.
    public let keptLimit: Int
    private let sink: (any ReplySink)?
    private var kept = Data()
    private var received: Int64 = 0
    private var response: HTTPResponse?

    /// `keeping` is the most body bytes kept (at least 0); `sink` gets every byte, `nil` by default.
    public init(keeping limit: Int, sink: (any ReplySink)? = nil) {
        keptLimit = max(0, limit)
        self.sink = sink
    }

    public var receivedBytes: Int64 { received }
    public var expectedReceivedBytes: Int64? { response?.expectedContentLength }

    public func task(_ task: TransferTask, didReceive response: HTTPResponse) throws(FerryError) {
        self.response = response
        if let length = response.expectedContentLength, length > 0 {
            kept.reserveCapacity(Int(min(length, Int64(keptLimit))))
        }
        try sink?.reply(response)
    }

    public func task(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer) throws(FerryError) {
        received += Int64(bytes.count)
        let room = keptLimit - kept.count
        if room > 0 { kept.append(contentsOf: bytes.prefix(room)) }
        try sink?.reply(body: bytes)
    }

    public func task(_ task: TransferTask, didCompleteWith result: Result<HTTPResponse, FerryError>, bytesSent: Int64) -> Result<TransferResult, FerryError> {
        result.map { TransferResult(response: $0, data: kept, bytesReceived: received, bytesSent: bytesSent) }
    }
}
