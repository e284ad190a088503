import Foundation

/// `TaskEvent` is what a ``SessionManager`` publishes about its tasks.
///
/// Progress events are coalesced latest-value snapshots (at most ~10 per second per task).
public enum TaskEvent: Sendable {
    /// The task moved to a new state.
    case stateChanged(taskID: Int, state: TransferTask.State)
    /// The task's progress changed.
    case progress(taskID: Int, progress: TransferProgress)
    /// The task ended; this is its last event.
    case completed(taskID: Int, result: Result<TransferResult, FerryError>)

    /// The identifier of the task the event is about.
    public var taskID: Int {
        switch self {
        case .stateChanged(let id, _), .progress(let id, _), .completed(let id, _): id
        }
    }
}

/// `TransferResult` is what a successful task produced.
public struct TransferResult: Sendable {
    /// The final response (after redirects).
    public var response: HTTPResponse
    /// The body, for data and upload tasks (downloads write to ``fileURL`` instead).
    public var data: Data?
    /// Where a download's file was written, under its final name.
    public var fileURL: URL?
    /// Body bytes received in this attempt.
    public var bytesReceived: Int64
    /// Body bytes sent.
    public var bytesSent: Int64
    /// Whether the download's `.part` is still linked to ``fileURL`` for the caller to remove
    /// (`DownloadPolicy.keepsPartialNameAfterCommit`); `false` when there was no `.part`.
    public var partialNameKept = false
    /// The path of that `.part` when ``partialNameKept``; `nil` otherwise.
    public var partialFilePath: String?

    public init(response: HTTPResponse, data: Data? = nil, fileURL: URL? = nil, bytesReceived: Int64 = 0, bytesSent: Int64 = 0) {
        self.response = response
        self.data = data
        self.fileURL = fileURL
        self.bytesReceived = bytesReceived
        self.bytesSent = bytesSent
    }
}
