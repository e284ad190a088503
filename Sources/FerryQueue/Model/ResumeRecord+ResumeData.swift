import FerryKit
import Foundation

extension ResumeRecord {
    /// `init(_:)` makes the journal's record of FerryKit's `ResumeData` (a final URL that is
    /// not a valid http or https URL is dropped; the resume then goes to the task's own URL).
    public init(_ data: ResumeData) {
        self.init(
            finalURL: data.finalURL.flatMap { try? TransferURL(validating: $0.absoluteString) },
            etag: data.etag,
            lastModified: data.lastModified,
            totalLength: data.totalLength,
            durableOffset: data.durableOffset
        )
    }

    /// `resumeData` is what a `ResumableDownloadDelegate` resumes from; `nil` when no byte is
    /// durable (the download starts from zero).
    public var resumeData: ResumeData? {
        guard durableOffset > 0 else { return nil }
        return ResumeData(
            finalURL: finalURL.flatMap { URL(string: $0.string) },
            etag: etag,
            lastModified: lastModified,
            totalLength: totalLength,
            durableOffset: durableOffset
        )
    }
}
