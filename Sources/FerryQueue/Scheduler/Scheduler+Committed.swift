import FerryKit
import Foundation

extension Scheduler {
    /// `committedOutcome(of:destination:url:)` is the outcome of a download whose file already
    /// took its final name before the process was killed (the journal did not yet say
    /// done): found by `DownloadDestination.recoverCommittedFile()`, which removes the
    /// `.part`, or, for a file written without a `.part`, by the task's `CommitMark`
    /// (`DownloadDestination.recoverMarkedFile(_:)`), so the file is not fetched again as
    /// `NAME.1`. `nil` when there is no such file.
    ///
    /// When the delegates do not check checksums, the file is checked here (a mismatch
    /// deletes it and fails the task), as after a transfer.
    func committedOutcome(of record: TaskRecord, destination: DownloadDestination, url: TransferURL) -> Result<TransferResult, FerryError>? {
        guard let file = destination.recoverCommittedFile(owner: delegateFactory.commitMark(for: record.id))
            ?? delegateFactory.commitMark(for: record.id).flatMap(destination.recoverMarkedFile) else { return nil }
        let requestURL = URL(string: url.string) ?? file
        let result = TransferResult(response: HTTPResponse(url: requestURL, statusCode: 200), fileURL: file,
                                    bytesReceived: Scheduler.fileSize(file))
        if !delegateFactory.verifiesChecksum, let checksum = record.spec.checksum {
            return checksum.verify(file: file).map { result }
        }
        return .success(result)
    }

    /// `fileSize(_:)` is the size of a file, `0` when it cannot be read.
    static func fileSize(_ file: URL) -> Int64 {
        var status = stat()
        return lstat(file.path, &status) == 0 ? Int64(status.st_size) : 0
    }
}
