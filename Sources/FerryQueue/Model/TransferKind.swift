/// `TransferKind` says whether a task downloads or uploads.
public enum TransferKind: String, Sendable, CaseIterable {
    /// `download` fetches the task's URL into a file.
    case download
    /// `upload` sends a multipart form or a raw body file to the task's URL.
    case upload
}
