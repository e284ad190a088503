import FerryQueue

/// `UploadRequest` is what the add-upload dialog asks the application to enqueue.
public struct UploadRequest: Sendable, Hashable {
    /// `url` is an http or https URL, already validated and trimmed.
    public var url: String
    /// `files` are the local files to send, each checked to be a readable regular file.
    public var files: [String]
    /// `fields` are the plain form fields, in the order typed (the queue's own field type).
    public var fields: [UploadSpec.Field]

    /// `init(url:files:fields:)` makes a request; files and fields are empty by default.
    public init(url: String, files: [String] = [], fields: [UploadSpec.Field] = []) {
        self.url = url
        self.files = files
        self.fields = fields
    }
}
