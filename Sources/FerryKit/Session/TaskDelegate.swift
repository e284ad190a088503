/// `TaskDelegate` receives one task's transfer callbacks, on the engine thread (but see
/// `task(_:didCompleteWith:bytesSent:)`).
///
/// Every task gets its own delegate (the AFURLSessionManager design). Implementations keep
/// their mutable state confined to the engine thread and are `@unchecked Sendable` for that reason.
public protocol TaskDelegate: AnyObject, Sendable {
    /// Extra request headers decided when the transfer starts (a resume's `Range`, for example).
    func additionalHeaders(for task: TransferTask) -> HTTPHeaders
    /// The upload body for this attempt, `nil` when there is none.
    func makeBodyStream(for task: TransferTask) throws(FerryError) -> (any BodyStream)?
    /// Called with each informational (1xx) response but `101`, once its head is in; the
    /// IETF resumable-upload protocol's `104` names the upload's resource this way while the
    /// body is still being sent. Does nothing by default.
    func task(_ task: TransferTask, didReceiveInformational response: HTTPResponse)
    /// Body bytes the server has from an earlier attempt (a resumed upload sends the rest):
    /// counted in the progress as sent. 0 by default.
    var bodyOffset: Int64 { get }
    /// The whole body's length when this request sends only a part of it (a window of a resumed
    /// upload): the progress's total. `nil` by default (the request's body and `bodyOffset`).
    var bodyTotal: Int64? { get }
    /// Called once with the final response, before the first body byte (or at the end when the body is empty).
    func task(_ task: TransferTask, didReceive response: HTTPResponse) throws(FerryError)
    /// Called with each chunk of the response body, in order.
    func task(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer) throws(FerryError)
    /// Body bytes received so far, including bytes already on disk before a resume.
    var receivedBytes: Int64 { get }
    /// Body bytes expected in total, `nil` when unknown.
    var expectedReceivedBytes: Int64? { get }
    /// Called once when the transfer ends; turns the transport's outcome into the task's outcome.
    /// When the transfer ended on its own (not cancelled), this runs on the engine's naming thread,
    /// after every other callback and never at the same time as one (the completions of a
    /// session run one after another, in the order their transfers ended), so a slow disk
    /// holds up no transfer. For FerryKit's download delegates the file's data was already
    /// made durable by then, together with the files of the transfers that ended with it.
    func task(_ task: TransferTask, didCompleteWith result: Result<HTTPResponse, FerryError>, bytesSent: Int64) -> Result<TransferResult, FerryError>
    /// Called often while the transfer runs, and about once a second when no bytes arrive
    /// (libcurl's progress callback), for work due by time, like a checkpoint. Does nothing by default.
    func taskDidTick(_ task: TransferTask)
}

extension TaskDelegate {
    public func additionalHeaders(for task: TransferTask) -> HTTPHeaders { [:] }

    public func makeBodyStream(for task: TransferTask) throws(FerryError) -> (any BodyStream)? {
        try task.request.body?.makeStream()
    }

    public func taskDidTick(_ task: TransferTask) {}

    public func task(_ task: TransferTask, didReceiveInformational response: HTTPResponse) {}

    public var bodyOffset: Int64 { 0 }

    public var bodyTotal: Int64? { nil }
}
