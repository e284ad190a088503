import Foundation

/// `ResumableAttemptDelegate` is the delegate of one request of a resumable upload: it keeps
/// the reply as ``ReplyTaskDelegate`` does, sends the body from `offset` on or a window of it
/// (progress counts the bytes already on the server, to the whole body), and hands an
/// informational response (the IETF protocol's `104`) to `informational` the moment its head
/// is in.
///
/// Every callback runs on the engine thread (the completion on its naming thread, after the
/// others), so its state needs no lock.
final class ResumableAttemptDelegate: TaskDelegate, @unchecked Sendable {
    private let reply: ReplyTaskDelegate
    private let offset: Int64
    private let window: (length: Int64, total: Int64)?
    private let informational: (@Sendable (HTTPResponse) -> Void)?

    /// `window` sends only `length` bytes from `offset`, of a body of `total` bytes.
    init(keeping limit: Int, sink: (any ReplySink)?, offset: Int64 = 0, window: (length: Int64, total: Int64)? = nil,
         informational: (@Sendable (HTTPResponse) -> Void)? = nil) {
        reply = ReplyTaskDelegate(keeping: limit, sink: sink)
        self.offset = offset
        self.window = window
        self.informational = informational
    }

    var receivedBytes: Int64 { reply.receivedBytes }
    var expectedReceivedBytes: Int64? { reply.expectedReceivedBytes }
    var bodyOffset: Int64 { offset }
    var bodyTotal: Int64? { window?.total }

    func makeBodyStream(for task: TransferTask) throws(FerryError) -> (any BodyStream)? {
        guard let body = task.request.body else { return nil }
        let stream = try body.makeStream()
        return offset == 0 && window == nil ? stream : try OffsetBodyStream(stream, offset: offset, length: window?.length)
    }

    func task(_ task: TransferTask, didReceiveInformational response: HTTPResponse) {
        informational?(response)
    }

    func task(_ task: TransferTask, didReceive response: HTTPResponse) throws(FerryError) {
        try reply.task(task, didReceive: response)
    }

    func task(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer) throws(FerryError) {
        try reply.task(task, didReceive: bytes)
    }

    func task(_ task: TransferTask, didCompleteWith result: Result<HTTPResponse, FerryError>, bytesSent: Int64) -> Result<TransferResult, FerryError> {
        reply.task(task, didCompleteWith: result, bytesSent: bytesSent)
    }
}
