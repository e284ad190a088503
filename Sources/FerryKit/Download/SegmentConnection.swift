import Foundation

/// `SegmentConnection` is the delegate of one connection of a ``SegmentedDownload``: it asks
/// for its range (`Range` with `If-Range`) and hands everything it receives to the download,
/// which validates and writes it.
///
/// Mutable state: none; its callbacks run on the engine thread and go straight to the download.
final class SegmentConnection: TaskDelegate, Sendable {
    let number: Int
    /// The range asked for (`first...last`), `nil` for the first connection of a fresh start.
    let range: (first: Int64, last: Int64)?
    let ifRange: String?
    let download: SegmentedDownload

    init(number: Int, range: (first: Int64, last: Int64)?, ifRange: String?, download: SegmentedDownload) {
        self.number = number
        self.range = range
        self.ifRange = ifRange
        self.download = download
    }

    func additionalHeaders(for task: TransferTask) -> HTTPHeaders {
        guard let range else { return [:] }
        var headers = HTTPHeaders()
        headers["Range"] = "bytes=\(range.first)-\(range.last)"
        if let ifRange { headers["If-Range"] = ifRange }
        return headers
    }

    func makeBodyStream(for task: TransferTask) throws(FerryError) -> (any BodyStream)? { nil }

    func task(_ task: TransferTask, didReceive response: HTTPResponse) throws(FerryError) {
        try download.connection(self, didReceive: response)
    }

    func task(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer) throws(FerryError) {
        try download.connection(self, didReceive: bytes)
    }

    var receivedBytes: Int64 { 0 }
    var expectedReceivedBytes: Int64? { nil }

    func taskDidTick(_ task: TransferTask) {
        download.tick()
    }

    func task(_ task: TransferTask, didCompleteWith result: Result<HTTPResponse, FerryError>, bytesSent: Int64) -> Result<TransferResult, FerryError> {
        result.map { TransferResult(response: $0) }
    }
}
