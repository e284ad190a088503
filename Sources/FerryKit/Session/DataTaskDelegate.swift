import Foundation

/// `DataTaskDelegate` keeps a response body in memory; it serves data and upload tasks.
///
/// Status codes are not judged here: a response serializer validates them.
/// Mutable state is touched only on the engine thread.
public final class DataTaskDelegate: TaskDelegate, @unchecked Sendable {
    private var data = Data()
    private var response: HTTPResponse?

    public init() {}

    public var receivedBytes: Int64 { Int64(data.count) }
    public var expectedReceivedBytes: Int64? { response?.expectedContentLength }

    public func task(_ task: TransferTask, didReceive response: HTTPResponse) throws(FerryError) {
        self.response = response
        if let length = response.expectedContentLength, length <= 64 * 1024 * 1024 {
            data.reserveCapacity(Int(length))
        }
    }

    public func task(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer) throws(FerryError) {
        data.append(contentsOf: bytes)
    }

    public func task(_ task: TransferTask, didCompleteWith result: Result<HTTPResponse, FerryError>, bytesSent: Int64) -> Result<TransferResult, FerryError> {
        result.map { TransferResult(response: $0, data: data, bytesReceived: Int64(data.count), bytesSent: bytesSent) }
    }
}
