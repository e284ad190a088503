import Foundation

/// `DownloadTaskDelegate` writes a response body to `NAME.part` and gives it its final name on success.
///
/// Error pages (non-2xx replies) are never written into the file: up to 64 KiB of them is kept
/// in memory for the error message. Mutable state is touched only on the engine thread, and
/// last by `didCompleteWith` (see `TaskDelegate`).
public final class DownloadTaskDelegate: TaskDelegate, @unchecked Sendable {
    /// The most bytes of an error page kept for the error.
    static let errorBodyLimit = 64 * 1024

    public let destination: DownloadDestination
    /// Whether the data is flushed to disk before the file takes its final name, `true` by default.
    public var synchronizesOnCompletion = true
    private var file: PartialFile?
    private var response: HTTPResponse?
    private var errorBody = Data()
    private var failure: FerryError?
    /// Whether the engine already made the file durable (`DurableCompletion`), and its error.
    private var synchronizedByEngine = false
    private var synchronizationError: FerryError?

    public init(destination: DownloadDestination) {
        self.destination = destination
    }

    public var receivedBytes: Int64 { file?.length ?? 0 }
    public var expectedReceivedBytes: Int64? {
        guard let response, response.isSuccess else { return nil }
        return response.expectedContentLength
    }

    public func task(_ task: TransferTask, didReceive response: HTTPResponse) throws(FerryError) {
        self.response = response
        guard response.isSuccess else { return }
        file = try PartialFile.create(atPath: destination.partialFilePath)
    }

    public func task(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer) throws(FerryError) {
        if let file {
            try file.write(bytes)
        } else if errorBody.count < Self.errorBodyLimit {
            errorBody.append(contentsOf: bytes.prefix(Self.errorBodyLimit - errorBody.count))
        }
    }

    public func task(_ task: TransferTask, didCompleteWith result: Result<HTTPResponse, FerryError>, bytesSent: Int64) -> Result<TransferResult, FerryError> {
        do throws(FerryError) {
            let response = try result.get()
            guard response.isSuccess else {
                throw .validation(.unacceptableStatus(response.statusCode, reason: response.reasonPhrase, url: URLMasking.mask(response.url), body: errorBody))
            }
            let file: PartialFile
            if let existing = self.file {
                file = existing
            } else {
                file = try PartialFile.create(at: destination.partialFileURL)  // an empty body
                self.file = file
            }
            if let expected = response.expectedContentLength, expected != file.length {
                throw .integrity(.truncated(expected: expected, received: file.length))
            }
            if let synchronizationError { throw synchronizationError }
            if synchronizesOnCompletion && !synchronizedByEngine { try file.synchronize() }
            let length = file.length
            let finalURL = try file.commit(to: destination)
            self.file = nil
            return .success(TransferResult(response: response, fileURL: finalURL, bytesReceived: length, bytesSent: bytesSent))
        } catch {
            file?.discard()
            file = nil
            return .failure(error)
        }
    }
}

extension DownloadTaskDelegate: DurableCompletion {
    var fileAwaitingSync: PartialFile? { synchronizesOnCompletion && response?.isSuccess == true ? file : nil }

    func didSynchronize(_ error: FerryError?) {
        synchronizedByEngine = true
        synchronizationError = error
    }
}
