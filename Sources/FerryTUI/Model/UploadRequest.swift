import FerryQueue

/// `UploadRequest` is what the add-upload dialog asks the application to enqueue.
public struct UploadRequest: Sendable, Hashable {
    /// `url` is an http or https URL, already validated and trimmed.
    public var url: String
    /// `files` are the local files to send, each checked to be a readable regular file.
    public var files: [String]
    /// `fields` are the plain form fields, in the order typed (the queue's own field type).
    public var fields: [UploadSpec.Field]
    /// `resumable` is how the upload resumes (`auto`, `ietf`, `tus`); `nil` (the default)
    /// for a plain upload.
    public var resumable: String?

    /// `init(url:files:fields:resumable:)` makes a request; files and fields are empty by
    /// default, and it is a plain upload.
    public init(url: String, files: [String] = [], fields: [UploadSpec.Field] = [], resumable: String? = nil) {
        self.url = url
        self.files = files
        self.fields = fields
        self.resumable = resumable
    }
}
